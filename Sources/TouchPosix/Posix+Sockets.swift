import CShims

#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    /// A connection to the Unix socket at `path`, made without waiting: a listener whose backlog is full answers
    /// EAGAIN instead of blocking the caller. The descriptor is nonblocking and close-on-exec.
    public static func connect(unixSocket path: String) throws(SystemError) -> Int32 {
        // Not retried on EINTR: a nonblocking connect to a Unix socket does not sleep, so it is not interrupted.
        let fd = touchd_unix_connect_nonblocking(path)
        guard fd >= 0 else { throw SystemError("connect", subject: path) }
        return fd
    }

    public static func setBlocking(_ fd: Int32) throws(SystemError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw SystemError("fcntl") }
    }

    /// SO_SNDTIMEO: a blocking send that the peer does not take within the time ends instead of waiting for ever.
    public static func setSendTimeout(_ fd: Int32, milliseconds: Int) throws(SystemError) {
        var limit = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        guard setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw SystemError("setsockopt SO_SNDTIMEO")
        }
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
