#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    /// One write(2) of as much as the descriptor takes now; `.bytes(n)` may be short, and a nonblocking descriptor
    /// that takes nothing now is `.wouldBlock`.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> IOResult {
        let written = retryingInterrupts { Glibc.write(fd, bytes.baseAddress, bytes.count) }
        if written >= 0 { return .bytes(written) }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        throw SystemError("write")
    }

    /// Writes every byte with write(2), for what may not be a socket (a terminal, a pipe, a file): a pipe takes a
    /// large buffer in parts, so one call is not enough. Stops at the first failure.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(SystemError) in try writeAll(fd, raw) } }.get()
    }

    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try writeAll(bytes, call: "write") { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    /// Calls `write` until it has taken every byte of `raw` (`sendAll` shares it, with send(2)).
    static func writeAll(
        _ raw: UnsafeRawBufferPointer, call: String, _ write: (UnsafeRawBufferPointer) -> Int
    ) throws(SystemError) {
        var offset = 0
        while offset < raw.count {
            let written = retryingInterrupts { write(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            guard written >= 0 else { throw SystemError(call) }
            offset += written
        }
    }
}
