import TouchCore

/// At most one log line per interval for a kind of message that a peer can cause at will (a refused connection),
/// so that one user cannot flood the journal; the lines held back are counted in the next one.
public struct LogThrottle {
    let intervalMicroseconds: Int64
    private var lastLogged: Int64?
    private var heldBack = 0

    public init(intervalMicroseconds: Int64 = 1_000_000) { self.intervalMicroseconds = intervalMicroseconds }

    /// Whether to log now, and how many lines were held back since the last one. Any two times: the span between
    /// them saturates (EventTime's arithmetic), so refusals at Int64's ends do not trap.
    public mutating func admit(at now: Int64) -> (log: Bool, heldBack: Int) {
        if let lastLogged,
            (EventTime(microseconds: now) - EventTime(microseconds: lastLogged)).microseconds < intervalMicroseconds
        {
            heldBack += 1
            return (false, 0)
        }
        lastLogged = now
        defer { heldBack = 0 }
        return (true, heldBack)
    }
}
