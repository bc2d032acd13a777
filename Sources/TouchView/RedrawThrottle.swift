/// When to draw: at most once every `interval`, and only when something changed since the last frame.
///
/// Times are monotonic microseconds. The caller asks `nextDraw` after each change (or wake-up) and either draws now
/// or sets a timer for the time returned; the state is read when the frame is drawn, so changes that come faster
/// than the frame rate are drawn together.
public struct RedrawThrottle: Sendable {
    public let interval: Int64
    public private(set) var lastDraw: Int64?
    /// The state's version at the last frame.
    public private(set) var drawnVersion: Int?

    /// 30 frames a second.
    public init(interval: Int64 = 1_000_000 / 30) {
        self.interval = max(0, interval)
    }

    /// - Returns: nil when there is nothing new to draw; otherwise the earliest time to draw (at or before `now`:
    ///   draw now).
    public func nextDraw(version: Int, now: Int64) -> Int64? {
        guard version != drawnVersion else { return nil }
        guard let lastDraw else { return now }
        return lastDraw + interval <= now ? now : lastDraw + interval
    }

    public mutating func drew(version: Int, at time: Int64) {
        drawnVersion = version
        lastDraw = time
    }

    /// The frame on screen is gone (a resize): the next one is due even if nothing changed, but no sooner than the
    /// frame rate allows, so that a storm of resizes is not a storm of frames.
    public mutating func invalidate() {
        drawnVersion = nil
    }
}
