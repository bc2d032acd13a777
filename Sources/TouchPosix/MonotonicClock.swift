import CShims

/// CLOCK_MONOTONIC, the clock evdev events are stamped with once touchd sets EVIOCSCLOCKID.
public enum MonotonicClock {
    public static func nowMicroseconds() -> Int64 { touchd_monotonic_us() }
}
