import TouchCore
import TouchFormats

/// Plays a recording as if it were a live device: events come due at their recorded offsets (divided by
/// `speed`) from `start`, stamped with CLOCK_MONOTONIC times as evdev stamps a real device's events. With `loop`
/// the recording starts again after its last event, `passGap` later.
///
/// Any recorded time plays (docs/decoding.md, "Time"): an offset is computed in floating point from the
/// saturated span, clamped to `0...maximumOffset`, and never earlier than the offset before it (backwards time
/// plays as no time passing), so due times never go back, a pass never lasts less than `passGap`, and no speed
/// overflows. Monotonic arithmetic goes through `EventTime`, which saturates.
public struct ReplayFeeder {
    /// The pause after a pass before the next, and so the shortest pass: a loop can never spin.
    public static let passGap = EventTime.Duration(microseconds: 10_000)
    /// The longest offset, 2⁶² µs (146,000 years): any recording fits, and `base + offset` stays far from overflow.
    public static let maximumOffset = EventTime.Duration(microseconds: 1 << 62)

    public let recording: Recording
    public let speed: Double
    public let loop: Bool
    private var index = 0
    private var base = EventTime.zero
    /// The offset of the last event delivered in this pass: the next may not come earlier.
    private var lastOffset = EventTime.Duration.zero
    /// From a pass's start to the next one's: its longest offset plus `passGap`.
    private let period: EventTime.Duration
    private let firstTime: EventTime
    public private(set) var passes = 0

    public init(recording: Recording, speed: Double = 1, loop: Bool = false) {
        self.recording = recording
        self.speed = speed.isNaN ? 1 : max(speed, 0.001)
        self.loop = loop
        firstTime = recording.events.first?.time ?? .zero
        var longest = EventTime.Duration.zero
        for event in recording.events {
            longest = max(longest, Self.offset(of: event.time, from: firstTime, speed: self.speed))
        }
        period = longest + Self.passGap
    }

    /// Begins playback at monotonic time `now`.
    public mutating func start(at now: Int64) {
        base = EventTime(microseconds: now)
        index = 0
        passes = 0
        lastOffset = .zero
    }

    public var isFinished: Bool { !loop && index >= recording.events.count }

    /// When the next event is due (monotonic µs), nil when the recording is done.
    public var nextDue: Int64? {
        guard !recording.events.isEmpty else { return nil }
        if index >= recording.events.count {
            return loop ? (base + period).microseconds : nil
        }
        return (base + offset(of: index)).microseconds
    }

    /// The events due by `now`, restamped on the monotonic clock, in time order and never earlier than the event
    /// before. Stops at the end of a pass and returns the pass's last time: the caller ends the fingers still
    /// down there (docs/protocol.md, "End of stream") before calling again for the next pass. Nil otherwise.
    public mutating func due(upTo now: Int64, into events: inout [InputEvent]) -> EventTime? {
        guard !recording.events.isEmpty else { return nil }
        let now = EventTime(microseconds: now)
        if index >= recording.events.count {
            guard loop, base + period <= now else { return nil }
            // A daemon that stalled longer than a whole pass does not replay the passes it missed in a burst.
            base = base + period + period <= now ? now : base + period
            index = 0
            lastOffset = .zero
            passes += 1
        }
        while index < recording.events.count {
            let offset = offset(of: index)
            let when = base + offset
            guard when <= now else { return nil }
            var event = recording.events[index]
            event.time = when
            events.append(event)
            lastOffset = offset
            index += 1
        }
        return base + lastOffset
    }

    /// The event's offset in this pass: its recorded one, but never before the last delivered.
    private func offset(of index: Int) -> EventTime.Duration {
        max(lastOffset, Self.offset(of: recording.events[index].time, from: firstTime, speed: speed))
    }

    /// `(time - first) / speed`, in floating point (a speed below 1 grows it) and clamped to
    /// `0...maximumOffset`: a backwards time is no time, a span beyond 64 bits is the longest wait.
    static func offset(of time: EventTime, from first: EventTime, speed: Double) -> EventTime.Duration {
        let scaled = Double((time - first).microseconds) / speed
        guard scaled > 0 else { return .zero }
        return scaled >= Double(maximumOffset.microseconds)
            ? maximumOffset : EventTime.Duration(microseconds: Int64(scaled))
    }
}
