#if canImport(Glibc)
    import Glibc
#endif

/// The system calls touchd makes, each a static of this namespace in the file of its concern: `Posix+Descriptors`
/// (open, read, lseek, fstat, close, poll, pipes), `+Writing` (write), `+Sockets` (connect, send, accept, peer
/// credentials), `+Epoll` (epoll, timerfd), `+Inotify`, `+Signals` (the mask, signalfd), `+Terminal`, `+Process`
/// and `+Spawn` (this process and its children), `+FileReplacement`; TouchDevice's `+Evdev` (its ioctls). Each
/// retries EINTR where a call can be interrupted (`retryingInterrupts`) and fails with a `SystemError` naming the
/// call and, where there is one, its subject; the types above them (`EventLoop`, `SignalSource`, `FileStream`,
/// `FileWatch` …) call these, not the C library. swift-system's pattern, in small.
public enum Posix {
    /// Makes a call that fails with -1 and errno, again for as long as it fails with EINTR: the one place touchd
    /// retries an interrupted call. A signal caught without SA_RESTART, or a debugger attaching, interrupts a
    /// blocking call, and that is not the call's failure. Not for close, which has closed the descriptor even when
    /// interrupted.
    static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            guard result == -1, errno == EINTR else { return result }
        }
    }

    public enum IOResult: Equatable, Sendable {
        case bytes(Int)
        case wouldBlock
        /// The peer closed (read returned 0).
        case endOfFile
    }
}
