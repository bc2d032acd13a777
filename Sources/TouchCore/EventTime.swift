/// A point in time on the clock of the event source, in microseconds.
///
/// Kernel events carry a `struct timeval`; recordings carry `sec.usec` text. Both fit exactly in microseconds,
/// so the core never touches floating-point time and replay is bit-for-bit deterministic.
public struct EventTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds * 1_000_000 + microseconds
    }

    /// Seconds and microseconds from a file, or nil when they do not fit in 64-bit microseconds.
    public static func checked(seconds: Int64, microseconds: Int64) -> EventTime? {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflow2) = scaled.addingReportingOverflow(microseconds)
        return overflow || overflow2 ? nil : EventTime(microseconds: sum)
    }

    public static let zero = EventTime(microseconds: 0)

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (lhs: EventTime, rhs: EventTime) -> Bool { lhs.microseconds < rhs.microseconds }

    public static func + (lhs: EventTime, rhs: Duration) -> EventTime {
        EventTime(microseconds: lhs.microseconds + rhs.microseconds)
    }

    public static func - (lhs: EventTime, rhs: EventTime) -> Duration {
        Duration(microseconds: lhs.microseconds - rhs.microseconds)
    }

    /// `sec.usec` with six fractional digits, as evemu and evtest print times.
    public var description: String {
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1_000_000)
        return sign + String(magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// A span of event time in microseconds. Not `Swift.Duration`: the core keeps one integer unit throughout.
    public struct Duration: Comparable, Hashable, Sendable {
        public var microseconds: Int64
        public init(microseconds: Int64) { self.microseconds = microseconds }
        public static func milliseconds(_ value: Int64) -> Duration { Duration(microseconds: value * 1000) }
        public static func < (lhs: Duration, rhs: Duration) -> Bool { lhs.microseconds < rhs.microseconds }
        public var seconds: Double { Double(microseconds) / 1_000_000 }
    }
}
