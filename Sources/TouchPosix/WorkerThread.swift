#if canImport(Glibc)
    import Glibc
#endif

/// One piece of work on a thread of its own, joined for its result: `touchd replay` reads and parses a recording
/// on one while the engine runs on the caller's thread. A thin wrapper over pthread_create and pthread_join.
public final class WorkerThread<Result: Sendable> {
    /// Where the thread leaves its result: it writes before it ends, and `pthread_join` orders that write before
    /// the joiner's read.
    private final class Outcome: @unchecked Sendable {
        var result: Result?
    }

    private let outcome = Outcome()
    private let thread: pthread_t
    private var joined = false

    /// Starts `body` on a new thread; fails as pthread_create fails (EAGAIN: no thread to be had).
    public init(_ body: @escaping @Sendable () -> Result) throws(SystemError) {
        let outcome = outcome
        thread = try Posix.startThread { outcome.result = body() }
    }

    /// Waits for the work to end; what it returned.
    public func join() -> Result {
        if !joined {
            pthread_join(thread, nil)
            joined = true
        }
        return outcome.result!
    }

    /// A worker is never left running past its owner: what it touches may be gone after.
    deinit {
        if !joined { pthread_join(thread, nil) }
    }
}

extension Posix {
    private final class ThreadBody {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a joinable thread running `body`.
    static func startThread(_ body: @escaping @Sendable () -> Void) throws(SystemError) -> pthread_t {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemError("pthread_create", errno: status)
        }
        return thread
    }
}
