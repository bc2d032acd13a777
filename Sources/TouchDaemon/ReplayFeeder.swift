import TouchCore
import TouchFormats

/// Plays a recording as if it were a live device: events come due at their recorded offsets (divided by
/// `speed`) from `start`, stamped with CLOCK_MONOTONIC times as evdev stamps a real device's events. With `loop`
/// the recording starts again after its last event, one frame interval later.
public struct ReplayFeeder {
    public let recording: Recording
    public let speed: Double
    public let loop: Bool
    private var index = 0
    private var base: Int64 = 0
    private let firstTime: Int64
    private let span: Int64
    public private(set) var passes = 0

    public init(recording: Recording, speed: Double = 1, loop: Bool = false) {
        self.recording = recording
        self.speed = max(speed, 0.001)
        self.loop = loop
        firstTime = recording.events.first?.time.microseconds ?? 0
        let last = recording.events.last?.time.microseconds ?? firstTime
        span = max(1, Int64(Double(last - firstTime) / max(speed, 0.001)) + 10_000)
    }

    /// Begins playback at monotonic time `now`.
    public mutating func start(at now: Int64) {
        base = now
        index = 0
        passes = 0
    }

    public var isFinished: Bool { !loop && index >= recording.events.count }

    /// When the next event is due (monotonic µs), nil when the recording is done.
    public var nextDue: Int64? {
        guard !recording.events.isEmpty else { return nil }
        if index >= recording.events.count {
            return loop ? base + span : nil
        }
        return base + offset(of: index)
    }

    /// The events due by `now`, restamped on the monotonic clock, ending at a frame boundary when possible.
    public mutating func due(upTo now: Int64, into events: inout [InputEvent]) {
        guard !recording.events.isEmpty else { return }
        while true {
            if index >= recording.events.count {
                guard loop, base + span <= now else { return }
                base += span
                index = 0
                passes += 1
            }
            let when = base + offset(of: index)
            guard when <= now else { return }
            var event = recording.events[index]
            event.time = EventTime(microseconds: when)
            events.append(event)
            index += 1
        }
    }

    private func offset(of index: Int) -> Int64 {
        Int64(Double(recording.events[index].time.microseconds - firstTime) / speed)
    }
}
