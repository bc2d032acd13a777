#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    /// open(2) with O_CLOEXEC added: no descriptor of touchd's leaks into a command touchd-actions spawns.
    public static func openFile(_ path: String, flags: Int32) throws(SystemError) -> Int32 {
        let fd = retryingInterrupts { Glibc.open(path, flags | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError("open", subject: path) }
        return fd
    }

    /// One read(2) into memory the caller owns (a device's event buffer, read once per wake-up).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult {
        let got = retryingInterrupts { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        if got > 0 { return .bytes(got) }
        if got == 0 { return .endOfFile }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        throw SystemError("read")
    }
}
