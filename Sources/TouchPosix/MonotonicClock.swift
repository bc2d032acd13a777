import CShims

#if canImport(Glibc)
    import Glibc
#endif

/// CLOCK_MONOTONIC, the clock evdev events are stamped with once touchd sets EVIOCSCLOCKID.
public enum MonotonicClock {
    public static func nowMicroseconds() -> Int64 { touchd_monotonic_us() }

    /// For measurements finer than a microsecond (the benchmarks).
    public static func nowNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
