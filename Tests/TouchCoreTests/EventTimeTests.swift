import Testing
import TouchCore
import TouchTestKit

/// Event time is total: the operators saturate, and the decoder never lets time go back.
@Suite("Event time: saturating arithmetic and backwards times")
struct EventTimeTests {
    @Test("+ and - saturate at the ends of Int64 instead of trapping")
    func saturation() {
        let max = Int64.max
        let min = Int64.min
        #expect(EventTime(microseconds: max - 1) + .milliseconds(500) == .max)
        #expect(EventTime(microseconds: min + 1) + EventTime.Duration(microseconds: -5) == .min)
        #expect(EventTime.max - EventTime.min == EventTime.Duration(microseconds: max))
        #expect(EventTime.min - EventTime.max == EventTime.Duration(microseconds: min))
        // 9e12 s to -9e12 s: 1.8e19 µs, more than Int64 holds (9.22e18).
        let late = EventTime(microseconds: 9_000_000_000_000_000_000)
        let early = EventTime(microseconds: -9_000_000_000_000_000_000)
        #expect(late - early == EventTime.Duration(microseconds: max))
        #expect(EventTime.Duration.milliseconds(max / 10) == EventTime.Duration(microseconds: max))
        #expect(EventTime.Duration.milliseconds(min / 10) == EventTime.Duration(microseconds: min))
        #expect(EventTime(seconds: 9_300_000_000_000, microseconds: 0) == .max)
        #expect(EventTime(seconds: -9_300_000_000_000, microseconds: 0) == .min)
        // In range, exact.
        #expect(
            EventTime(microseconds: 1_500_000) - EventTime(microseconds: 2_000_000) == .init(microseconds: -500_000))
        #expect(EventTime(seconds: 3, microseconds: 25) + .milliseconds(2) == EventTime(microseconds: 3_002_025))
    }

    /// A touch goes down at 1.000 s; the next frame is stamped 0.500 s (half a second back), the lift 0.995 s.
    /// The decoder treats each backwards time as the latest time seen (1.000 s) and counts every such event:
    /// the move frame's 3 events (x, y, SYN_REPORT) and the lift frame's 2 (tracking id, SYN_REPORT) = 5.
    @Test("times that go back are clamped to the latest time seen and counted")
    func backwardsTimesAreClamped() {
        let script = EventScript(start: EventTime(microseconds: 1_000_000))
        script.slot(0).trackingID(1).position(x: 100, y: 100).report()
        script.time = EventTime(microseconds: 500_000)
        script.position(x: 200, y: 100).report()
        script.time = EventTime(microseconds: 995_000)
        script.trackingID(-1).report()
        var decoder = TouchDecoder(description: TestDevices.touchscreen)
        var outputs: [DecoderOutput] = []
        for event in script.events { decoder.process(event, into: &outputs) }
        let times = outputs.map { output -> Int64 in
            switch output {
            case .finger(let event): event.time.microseconds
            case .frameEnd(let time): time.microseconds
            }
        }
        #expect(times == Array(repeating: 1_000_000, count: 6))  // down, frame, move, frame, up, frame
        #expect(decoder.diagnostics.backwardTimes == 5)
        #expect(decoder.latestTime == EventTime(microseconds: 1_000_000))
        #expect(decoder.diagnostics.nonZero.map(\.name) == ["times that went backwards (clamped)"])
    }

    @Test("equal times are not a quirk, and a cancel or resync earlier than the stream is clamped silently")
    func equalTimesAndCallerTimes() {
        let script = EventScript(start: EventTime(microseconds: 7), frameInterval: .zero)
        script.slot(0).trackingID(1).position(x: 1, y: 1).report()
        script.position(x: 2, y: 2).report()
        var decoder = TouchDecoder(description: TestDevices.touchscreen)
        var outputs: [DecoderOutput] = []
        for event in script.events { decoder.process(event, into: &outputs) }
        outputs.removeAll()
        decoder.cancelAll(at: EventTime(microseconds: 3), into: &outputs)
        guard case .finger(let cancel) = outputs.first else {
            Issue.record("no cancel")
            return
        }
        #expect(cancel.phase == .cancel)
        #expect(cancel.time == EventTime(microseconds: 7))
        #expect(decoder.diagnostics.backwardTimes == 0)
    }
}
