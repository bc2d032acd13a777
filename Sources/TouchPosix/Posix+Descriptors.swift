import CShims

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

    /// Opens `path` for writing, created (with `mode`, less the umask) or emptied; close-on-exec.
    public static func createFile(_ path: String, mode: UInt32 = 0o644) throws(SystemError) -> Int32 {
        let fd = retryingInterrupts { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw SystemError("open", subject: path) }
        return fd
    }

    public static func read(_ fd: Int32, into buffer: inout [UInt8], count: Int) throws(SystemError) -> IOResult {
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
        let got = retryingInterrupts { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) } }
        if got > 0 { return .bytes(got) }
        if got == 0 { return .endOfFile }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        throw SystemError("read")
    }

    /// One read(2) into memory the caller owns (a device's event buffer, read once per wake-up).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult {
        let got = retryingInterrupts { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        if got > 0 { return .bytes(got) }
        if got == 0 { return .endOfFile }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        throw SystemError("read")
    }

    /// pread(2): up to `buffer.count` bytes from `offset`, without moving the descriptor's own position; 0 at the
    /// end of the file.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
        throws(SystemError) -> Int
    {
        let got = retryingInterrupts { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
        guard got >= 0 else { throw SystemError("pread") }
        return got
    }

    /// lseek(2) to `offset` from the start (`SEEK_SET`); nil when the descriptor cannot seek (a pipe).
    @discardableResult
    public static func seek(_ fd: Int32, to offset: Int) -> Int? {
        let position = lseek(fd, off_t(offset), SEEK_SET)
        return position >= 0 ? Int(position) : nil
    }

    /// The descriptor's position (lseek SEEK_CUR); nil when it cannot seek (a pipe).
    public static func position(_ fd: Int32) -> Int? {
        let position = lseek(fd, 0, SEEK_CUR)
        return position >= 0 ? Int(position) : nil
    }

    /// fstat(2): what the descriptor is open on, as it stands now.
    public static func status(_ fd: Int32) throws(SystemError) -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError("fstat") }
        return info
    }

    public static func close(_ fd: Int32) {
        // EINTR on close still closes the descriptor on Linux: never retry.
        _ = Glibc.close(fd)
    }

    public static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw SystemError("fcntl") }
    }

    public static func setBlocking(_ fd: Int32) throws(SystemError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw SystemError("fcntl") }
    }

    /// A pipe whose ends are both nonblocking and close-on-exec (pipe2).
    public static func nonblockingPipe() throws(SystemError) -> (readEnd: Int32, writeEnd: Int32) {
        var fds: [Int32] = [-1, -1]
        guard touchd_pipe_nonblocking(&fds) == 0 else { throw SystemError("pipe2") }
        return (fds[0], fds[1])
    }

    /// Waits at most `timeoutMilliseconds` until `fd` has something to read, or its peer hung up, or it failed (a
    /// read then says which).
    /// - Returns: false when the time ran out first.
    public static func waitUntilReadable(_ fd: Int32, timeoutMilliseconds: Int) throws(SystemError) -> Bool {
        let deadline = MonotonicClock.nowMicroseconds() + Int64(timeoutMilliseconds) * 1000
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = retryingInterrupts {
            // Recomputed on each try: after a signal the wait goes on for what is left, not the whole time again.
            // Rounded up, so that the wait is never shorter than asked.
            let remaining = max(0, deadline - MonotonicClock.nowMicroseconds())
            return poll(&request, 1, Int32(clamping: (remaining + 999) / 1000))
        }
        guard ready >= 0 else { throw SystemError("poll") }
        return ready > 0
    }
}
