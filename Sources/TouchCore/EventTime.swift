/// A point in time on the clock of the event source, in microseconds.
///
/// Kernel events carry a `struct timeval`; recordings carry `sec.usec` text. Both fit exactly in microseconds,
/// so the core never touches floating-point time and replay is bit-for-bit deterministic.
///
/// Time is total: a recording can hold any 64-bit time (backwards, 0, near either limit, spans wider than
/// `Int64` holds), and every piece of event-time arithmetic in touchd goes through the operators here, which
/// saturate at `EventTime.min`/`EventTime.max` instead of trapping. A deadline past the end of time is "never",
/// which is what it means; a span wider than 64 bits is the widest span. This is the one place that decides it.
public struct EventTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// `sec` and `usec` as the kernel hands them; a time beyond 64-bit microseconds saturates.
    public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = Saturating.add(Saturating.multiply(seconds, 1_000_000), microseconds)
    }

    /// Seconds and microseconds from a file, or nil when they do not fit in 64-bit microseconds.
    public static func checked(seconds: Int64, microseconds: Int64) -> EventTime? {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflow2) = scaled.addingReportingOverflow(microseconds)
        return overflow || overflow2 ? nil : EventTime(microseconds: sum)
    }

    public static let zero = EventTime(microseconds: 0)
    /// The ends of time: a saturated deadline is `max` ("never").
    public static let min = EventTime(microseconds: .min)
    public static let max = EventTime(microseconds: .max)

    /// The earlier of two deadlines, either of which may be absent (no timer): how every "next deadline" is
    /// combined.
    @inlinable public static func earliest(_ a: EventTime?, _ b: EventTime?) -> EventTime? {
        guard let a else { return b }
        guard let b else { return a }
        return Swift.min(a, b)
    }

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (lhs: EventTime, rhs: EventTime) -> Bool { lhs.microseconds < rhs.microseconds }

    /// Saturating: a deadline beyond the end of time is the end of time.
    public static func + (lhs: EventTime, rhs: Duration) -> EventTime {
        EventTime(microseconds: Saturating.add(lhs.microseconds, rhs.microseconds))
    }

    /// Saturating: `max - min` is the longest duration, not a trap.
    public static func - (lhs: EventTime, rhs: EventTime) -> Duration {
        Duration(microseconds: Saturating.subtract(lhs.microseconds, rhs.microseconds))
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
        public static let zero = Duration(microseconds: 0)
        public static func milliseconds(_ value: Int64) -> Duration {
            Duration(microseconds: Saturating.multiply(value, 1000))
        }
        public static func < (lhs: Duration, rhs: Duration) -> Bool { lhs.microseconds < rhs.microseconds }
        /// Saturating, as the time operators.
        public static func + (lhs: Duration, rhs: Duration) -> Duration {
            Duration(microseconds: Saturating.add(lhs.microseconds, rhs.microseconds))
        }
        public var seconds: Double { Double(microseconds) / 1_000_000 }
    }
}

/// 64-bit arithmetic that clamps to the type's limits instead of trapping: the one definition behind
/// `EventTime`'s operators.
enum Saturating {
    static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    static func subtract(_ a: Int64, _ b: Int64) -> Int64 {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : difference
    }

    static func multiply(_ a: Int64, _ b: Int64) -> Int64 {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? ((a < 0) == (b < 0) ? .max : .min) : product
    }
}
