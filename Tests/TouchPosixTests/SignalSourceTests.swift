import Foundation
import Synchronization
import Testing
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

/// A `SignalSource` blocks its signals while it is open and leaves the mask as it found it when it goes. The test
/// runner's threads block signals of their own, so each test runs on a thread whose mask it sets first; the mask is
/// read back with pthread_sigmask, not through the module under test.
@Suite("Signal sources and the signal mask", .serialized)
struct SignalSourceTests {
    static let signal = SIGUSR2

    static func isBlocked(_ signal: Int32) -> Bool {
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        return sigismember(&current, signal) == 1
    }

    /// Runs `body` on a thread of its own with `signal` blocked or not at its start.
    static func onThread<Value: Sendable>(
        blocked: Bool, _ body: @escaping @Sendable () throws -> Value
    ) throws -> Value {
        let result = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var mask = sigset_t()
            sigemptyset(&mask)
            sigaddset(&mask, signal)
            pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &mask, nil)
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    @Test("open, the source blocks its signal and the loop reads it; closed, the signal is let through again")
    func unblocksWhenClosed() throws {
        let (whileOpen, received, afterwards) = try Self.onThread(blocked: false) {
            let loop = try EventLoop()
            var received: [Int32] = []
            var source: SignalSource? = try SignalSource(loop: loop, signals: [Self.signal]) { received.append($0) }
            let whileOpen = Self.isBlocked(Self.signal)
            pthread_kill(pthread_self(), Self.signal)
            try loop.runOnce(timeoutMilliseconds: 1000)
            withExtendedLifetime(source) {}
            source = nil
            return (whileOpen, received, Self.isBlocked(Self.signal))
        }
        #expect(whileOpen)
        #expect(received == [Self.signal])
        #expect(!afterwards)
    }

    @Test("a signal blocked before the source stays blocked after it")
    func keepsWhatWasBlocked() throws {
        let afterwards = try Self.onThread(blocked: true) {
            let loop = try EventLoop()
            var source: SignalSource? = try SignalSource(loop: loop, signals: [Self.signal]) { _ in }
            withExtendedLifetime(source) {}
            source = nil
            return Self.isBlocked(Self.signal)
        }
        #expect(afterwards)
    }

    @Test("a signal that arrived unread goes with the source: it is not delivered when the mask is restored")
    func discardsWhatArrivedUnread() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in delivered.wrappingAdd(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        sigaction(Self.signal, &action, &previous)
        defer { sigaction(Self.signal, &previous, nil) }
        let before = delivered.load(ordering: .relaxed)
        let (read, afterwards) = try Self.onThread(blocked: false) {
            let loop = try EventLoop()
            var read = 0
            var source: SignalSource? = try SignalSource(loop: loop, signals: [Self.signal]) { _ in read += 1 }
            pthread_kill(pthread_self(), Self.signal)
            withExtendedLifetime(source) {}
            source = nil
            return (read, Self.isBlocked(Self.signal))
        }
        #expect(read == 0)
        #expect(!afterwards)
        #expect(delivered.load(ordering: .relaxed) == before)
    }
}

private let delivered = Atomic<Int>(0)
