import CShims

#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    /// The value of an environment variable; nil when it is not set.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether this process may read `path` (access(2), by the real user and group ids).
    public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    public static var processID: Int32 { getpid() }

    /// The unit of the CPU times in /proc/PID/stat.
    public static var clockTicksPerSecond: Int { sysconf(Int32(_SC_CLK_TCK)) }

    /// Ends the process as exit(3) does: atexit handlers run and C stdio buffers are flushed.
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Sleeps for at least `microseconds`: a signal does not cut the sleep short.
    public static func sleep(microseconds: Int64) {
        guard microseconds > 0 else { return }
        var time = timespec(tv_sec: Int(microseconds / 1_000_000), tv_nsec: Int(microseconds % 1_000_000) * 1000)
        withUnsafeMutablePointer(to: &time) { time in
            // nanosleep writes what is left into its second argument: passing the request there makes each retry
            // sleep only for the rest.
            _ = retryingInterrupts { nanosleep(time, time) }
        }
    }

    /// The processors this process may run on now (its affinity mask, which taskset and cpusets narrow), at least 1.
    public static var usableProcessorCount: Int { Int(touchd_usable_processors()) }
}
