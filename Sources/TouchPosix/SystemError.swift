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

/// Thin wrappers over the calls touchd makes, retrying EINTR (swift-system's pattern, in small).
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

    public static func read(_ fd: Int32, into buffer: inout [UInt8], count: Int) throws(SystemError) -> IOResult {
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
        let got = retryingInterrupts { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) } }
        if got > 0 { return .bytes(got) }
        if got == 0 { return .endOfFile }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        throw SystemError("read")
    }

    /// Sends on a socket as much as the kernel takes now; `.bytes(n)` may be short. MSG_NOSIGNAL: a peer that has
    /// gone is EPIPE, not a SIGPIPE that ends the process.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> IOResult {
        guard bytes.count > 0 else { return .bytes(0) }
        let written = retryingInterrupts { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
        if written >= 0 { return .bytes(written) }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        throw SystemError("send")
    }

    public static func close(_ fd: Int32) {
        // EINTR on close still closes the descriptor on Linux: never retry.
        _ = Glibc.close(fd)
    }

    public static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw SystemError("fcntl") }
    }
}
