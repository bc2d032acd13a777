import CShims

#if canImport(Glibc)
    import Glibc
#endif

/// epoll and timerfd: what `EventLoop` waits in, and its timers (`LoopTimer`).
extension Posix {
    /// epoll_create1(EPOLL_CLOEXEC).
    static func epollCreate() throws(SystemError) -> Int32 {
        let fd = touchd_epoll_create()
        guard fd >= 0 else { throw SystemError("epoll_create1") }
        return fd
    }

    /// epoll_ctl ADD: `fd` watched for `events` (EPOLLIN …), reported with `token`.
    static func epollAdd(_ epollFD: Int32, _ fd: Int32, events: UInt32, token: UInt64) throws(SystemError) {
        guard touchd_epoll_control(epollFD, touchd_epoll_ctl_add, fd, events, token) == 0 else {
            throw SystemError("epoll_ctl ADD", subject: "fd \(fd)")
        }
    }

    /// epoll_ctl MOD: `fd` now watched for `events`.
    static func epollModify(_ epollFD: Int32, _ fd: Int32, events: UInt32, token: UInt64) throws(SystemError) {
        guard touchd_epoll_control(epollFD, touchd_epoll_ctl_mod, fd, events, token) == 0 else {
            throw SystemError("epoll_ctl MOD", subject: "fd \(fd)")
        }
    }

    /// epoll_ctl DEL. A failure is not one: a descriptor already closed has left the set by itself.
    static func epollRemove(_ epollFD: Int32, _ fd: Int32, token: UInt64) {
        _ = touchd_epoll_control(epollFD, touchd_epoll_ctl_del, fd, 0, token)
    }

    /// epoll_wait for up to `timeoutMilliseconds` (-1 forever, 0 not at all).
    /// - Returns: how many events it wrote into `events`; 0 when a signal interrupted the wait, which the caller
    ///   takes as a wake-up with nothing ready (not retried: the loop decides whether to wait again).
    static func epollWait(
        _ epollFD: Int32, into events: UnsafeMutablePointer<touchd_epoll_event>, capacity: Int32,
        timeoutMilliseconds: Int32
    ) throws(SystemError) -> Int {
        let count = touchd_epoll_wait(epollFD, events, capacity, timeoutMilliseconds)
        if count < 0 {
            if errno == EINTR { return 0 }
            throw SystemError("epoll_wait")
        }
        return Int(count)
    }

    /// timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC).
    static func timerCreate() throws(SystemError) -> Int32 {
        let fd = touchd_timerfd_create()
        guard fd >= 0 else { throw SystemError("timerfd_create") }
        return fd
    }

    /// Arms the timer for an absolute CLOCK_MONOTONIC time in microseconds; 0 or less disarms it.
    static func timerArm(_ fd: Int32, atMicroseconds time: Int64) {
        _ = touchd_timerfd_arm(fd, time)
    }

    /// Reads the timer's expirations, so that it is not readable again until it next fires.
    static func timerDrain(_ fd: Int32) {
        _ = touchd_timerfd_drain(fd)
    }
}
