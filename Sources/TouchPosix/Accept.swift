import CShims
import Glibc

extension Posix {
    /// What `accept` gave: a connection, nothing pending, or a shortage of descriptors or memory (the
    /// connection stays in the backlog, so the caller should stop accepting for a moment rather than spin).
    public enum Accepted: Equatable, Sendable {
        case connection(Int32)
        case nonePending
        case exhausted(SystemError)
    }

    /// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC; EINTR is retried.
    public static func accept(_ listener: Int32, path: String) throws(SystemError) -> Accepted {
        let fd = retryingInterrupts { touchd_accept(listener) }
        if fd >= 0 { return .connection(fd) }
        switch errno {
        case EAGAIN, EWOULDBLOCK: return .nonePending
        case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted(SystemError("accept", subject: path))
        default: throw SystemError("accept", subject: path)
        }
    }
}
