import Glibc

/// The signals touchd and touchctl handle, by name (for `SignalSource`), so callers need not import Glibc.
public enum Signal {
    public static let terminate = SIGTERM
    public static let interrupt = SIGINT
    public static let hangup = SIGHUP
    /// The terminal was resized.
    public static let windowChanged = SIGWINCH
}

/// Signals delivered through a signalfd in the loop instead of asynchronous handlers.
///
/// While it is open its signals are blocked on the thread that made it (the loop's; threads started meanwhile
/// inherit them blocked, so only the loop sees them). When it goes, it discards what arrived unread (its owner has
/// stopped listening: a signal sent during a shutdown is not then delivered with its default action) and lets
/// through again the signals it blocked, not those that were blocked before it: a program that goes on after its
/// loop (a prompt) gets Ctrl-C back. Two sources of one signal at once go in the reverse order of their making
/// (the later one blocked nothing, so the earlier one's going would let the signal past it).
public final class SignalSource {
    private let fd: Int32
    private var token: UInt64 = 0
    /// Weak, as `LoopTimer`'s: a source released before its loop deregisters its handler.
    private weak var loop: EventLoop?
    /// The signals this source blocked, for its going to let through.
    private let blocked: [Int32]

    public init(loop: EventLoop, signals: [Int32], handler: @escaping (Int32) -> Void) throws(SystemError) {
        let blocked = try Posix.blockSignals(signals)
        do {
            fd = try Posix.signalDescriptor(signals)
        } catch {
            Posix.unblockSignals(blocked)
            throw error
        }
        self.blocked = blocked
        self.loop = loop
        let descriptor = fd
        token = try loop.register(fd, for: .readable) { _ in
            while let signal = Posix.readSignal(descriptor) { handler(signal) }
        }
    }

    deinit {
        loop?.deregister(token)
        while Posix.readSignal(fd) != nil {}
        Posix.close(fd)
        Posix.unblockSignals(blocked)
    }
}
