import TouchCore

/// Plays a recording as if it were a live device: events come due at their recorded offsets (divided by
/// `speed`) from `start`, stamped with CLOCK_MONOTONIC times as evdev stamps a real device's events. With `loop`
/// the recording starts again after its last event, `passGap` later.
///
/// The feeder holds no recording: its reader hands it each pass's events a batch at a time when it asks
/// (`Step.needsEvents`), and reads the recording again from its start for each pass of a loop (`Step.nextPass`).
/// It holds only the batch it is playing, so a recording of any length plays in the same memory.
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

    /// What the reader is to do next (`due`).
    public enum Step: Equatable, Sendable {
        /// Nothing more is due yet: `nextDue` says when.
        case waiting
        /// Every event handed over is played: hand over the pass's next ones (`append`), or say it has no more
        /// (`endOfEvents`).
        case needsEvents
        /// The pass ended at this time: the caller ends the fingers still down there (docs/protocol.md, "End of
        /// stream").
        case passEnded(EventTime)
        /// A loop's next pass begins: the caller reads the recording again from its start.
        case nextPass
        /// The recording is played (or has no events).
        case finished
    }

    public let speed: Double
    public let loop: Bool
    /// The first event's time, which every offset counts from; nil when the recording has no events.
    public let firstTime: EventTime?
    /// The batch being played; `pending[index...]` is still to come.
    private var pending: [InputEvent] = []
    private var index = 0
    /// The reader said this pass has no more events.
    private var readAll = false
    /// This pass's end was reported (`Step.passEnded`).
    private var passEndReported = false
    private var base = EventTime.zero
    /// The offset of the last event delivered in this pass: the next may not come earlier. At a pass's end, its
    /// longest offset.
    private var lastOffset = EventTime.Duration.zero
    public private(set) var passes = 0

    /// `firstTime` is the recording's first event's time, as its reader found it before playing.
    public init(firstTime: EventTime?, speed: Double = 1, loop: Bool = false) {
        self.firstTime = firstTime
        self.speed = speed.isNaN ? 1 : max(speed, 0.001)
        self.loop = loop
    }

    /// Begins playback at monotonic time `now`, the reader at the recording's start.
    public mutating func start(at now: Int64) {
        base = EventTime(microseconds: now)
        passes = 0
        beginPass()
    }

    /// The pass's next events, in the recording's order.
    public mutating func append(_ events: ArraySlice<InputEvent>) {
        if index >= pending.count {
            pending.removeAll(keepingCapacity: true)
            index = 0
        }
        pending.append(contentsOf: events)
    }

    /// The reader has no more events in this pass.
    public mutating func endOfEvents() { readAll = true }

    /// The events not yet played that the feeder holds: never more than the reader handed it since they ran out.
    public var heldCount: Int { pending.count - index }

    /// When the next event is due (monotonic µs); now or earlier when the reader is to hand over more; nil when the
    /// recording is done.
    public var nextDue: Int64? {
        guard let firstTime else { return nil }
        if index < pending.count {
            return (base + offset(of: pending[index].time, firstTime)).microseconds
        }
        if !readAll || !passEndReported { return (base + lastOffset).microseconds }
        return loop ? (base + lastOffset + Self.passGap).microseconds : nil
    }

    /// Hands the events due by `now`, restamped on the monotonic clock, in time order and never earlier than the
    /// event before, and says what the caller is to do next: hand over more events, end the pass, read the
    /// recording again for the next pass, or wait.
    public mutating func due(upTo now: Int64, into events: inout [InputEvent]) -> Step {
        guard let firstTime else { return .finished }
        let now = EventTime(microseconds: now)
        while index < pending.count {
            var event = pending[index]
            let offset = offset(of: event.time, firstTime)
            let when = base + offset
            guard when <= now else { return .waiting }
            event.time = when
            events.append(event)
            lastOffset = offset
            index += 1
        }
        guard readAll else { return .needsEvents }
        if !passEndReported {
            passEndReported = true
            return .passEnded(base + lastOffset)
        }
        guard loop else { return .finished }
        let period = lastOffset + Self.passGap
        guard base + period <= now else { return .waiting }
        // A daemon that stalled longer than a whole pass does not replay the passes it missed in a burst.
        base = base + period + period <= now ? now : base + period
        passes += 1
        beginPass()
        return .nextPass
    }

    private mutating func beginPass() {
        pending.removeAll(keepingCapacity: true)
        index = 0
        readAll = false
        passEndReported = false
        lastOffset = .zero
    }

    /// The event's offset in this pass: its recorded one, but never before the last delivered.
    private func offset(of time: EventTime, _ first: EventTime) -> EventTime.Duration {
        max(lastOffset, Self.offset(of: time, from: first, speed: speed))
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
