#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call: which call, on what, and errno.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    public var subject: String?

    public init(_ call: String, errno: Int32 = Glibc.errno, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        return subject.map { "\(call) \($0): \(reason)" } ?? "\(call): \(reason)"
    }

    public var isWouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}
