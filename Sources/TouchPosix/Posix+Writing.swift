#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    /// Writes every byte with write(2), for what may not be a socket (a terminal, a pipe, a file): a pipe takes a
    /// large buffer in parts, so one call is not enough. Stops at the first failure.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(SystemError) in try writeAll(fd, raw) } }.get()
    }

    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try writeAll(bytes, call: "write") { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    /// Sends every byte on a socket. MSG_NOSIGNAL: a peer that has gone is EPIPE, not a SIGPIPE that ends the
    /// process. A send timeout (`setSendTimeout`) ends a call short with what the peer took, and the next call
    /// then fails with EAGAIN (`SystemError.isWouldBlock`).
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemError) in
                try writeAll(raw, call: "send") { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }.get()
    }

    private static func writeAll(
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
