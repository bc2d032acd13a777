import TouchCore

/// At most `burst` log lines per interval for a kind of message that a peer can cause at will (a refused
/// connection, a connect and close), so that one user cannot flood the journal; the lines held back are counted
/// in the next one that is logged, or, when none follows, once their interval is over (`takeHeldBack`).
public struct LogThrottle {
    let intervalMicroseconds: Int64
    let burst: Int
    private var windowStart: Int64?
    private var loggedInWindow = 0
    private var heldBack = 0

    public init(intervalMicroseconds: Int64 = 1_000_000, burst: Int = 1) {
        self.intervalMicroseconds = intervalMicroseconds
        self.burst = max(1, burst)
    }

    /// Whether to log now, and how many lines were held back since the last one. Any two times: the span between
    /// them saturates (EventTime's arithmetic), so lines at Int64's ends do not trap.
    public mutating func admit(at now: Int64) -> (log: Bool, heldBack: Int) {
        if let windowStart,
            (EventTime(microseconds: now) - EventTime(microseconds: windowStart)).microseconds < intervalMicroseconds
        {
            guard loggedInWindow < burst else {
                heldBack += 1
                return (false, 0)
            }
        } else {
            windowStart = now
            loggedInWindow = 0
        }
        loggedInWindow += 1
        defer { heldBack = 0 }
        return (true, heldBack)
    }

    /// When lines held back in the current interval are due to be counted on their own: the interval's end.
    public var heldBackDeadline: EventTime? {
        guard heldBack > 0, let windowStart else { return nil }
        return EventTime(microseconds: windowStart) + EventTime.Duration(microseconds: intervalMicroseconds)
    }

    /// The lines held back, once their interval is over at `now` (then counted here, not in a later line).
    public mutating func takeHeldBack(at now: Int64) -> Int? {
        guard let deadline = heldBackDeadline, deadline.microseconds <= now else { return nil }
        defer { heldBack = 0 }
        return heldBack
    }
}
