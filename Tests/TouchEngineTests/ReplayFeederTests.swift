import Testing
import TouchCore
import TouchEngine
import TouchFormats

/// `touchd run --replay` pacing at any recorded time and speed (issue 11, items 5 and 6).
@Suite("Replay feeder: pacing, loops and ends of passes")
struct ReplayFeederTests {
    func recording(_ times: [EventTime]) -> Recording {
        let events = times.map {
            InputEvent(time: $0, type: EventType.syn, code: SynCode.report, value: 0)
        }
        return Recording(format: .evemu, description: DeviceDescription(), descriptionSource: .inferred, events: events)
    }

    func drain(_ feeder: inout ReplayFeeder, upTo now: Int64) -> (times: [Int64], passEnd: EventTime?) {
        var events: [InputEvent] = []
        let end = feeder.due(upTo: now, into: &events)
        return (events.map(\.time.microseconds), end)
    }

    /// Times 1.000, 1.000, 1.010 and a last event 0.5 s before the first. Offsets 0, 0, 10 ms, and the last
    /// plays as no time passing (10 ms). A pass: its 10 ms plus the 10 ms gap = 20 ms; before, it was 1 µs.
    @Test("a recording whose last time is before its first: due times never go back, a pass lasts 20 ms")
    func backwardsLoop() {
        let times = [1_000_000, 1_000_000, 1_010_000, 500_000].map { EventTime(microseconds: $0) }
        var feeder = ReplayFeeder(recording: recording(times), loop: true)
        feeder.start(at: 1_000_000)
        #expect(drain(&feeder, upTo: 1_005_000).times == [1_000_000, 1_000_000])
        let end = drain(&feeder, upTo: 1_010_000)
        #expect(end.times == [1_010_000, 1_010_000])
        #expect(end.passEnd == EventTime(microseconds: 1_010_000))
        #expect(feeder.nextDue == 1_020_000)
        #expect(drain(&feeder, upTo: 1_019_999).times.isEmpty)
        #expect(drain(&feeder, upTo: 1_020_000).times == [1_020_000, 1_020_000])
        #expect(feeder.passes == 1)
    }

    @Test("a pass is never shorter than 10 ms: one event, or every time equal, or an infinite speed")
    func shortestPass() {
        for (times, speed) in [
            ([EventTime(microseconds: 5)], 1.0), ([.zero, .zero, .zero], 1), ([.zero, .max], .infinity),
        ] {
            var feeder = ReplayFeeder(recording: recording(times), speed: speed, loop: true)
            feeder.start(at: 100)
            #expect(drain(&feeder, upTo: 100).passEnd == EventTime(microseconds: 100))
            #expect(feeder.nextDue == 10_100)
        }
    }

    /// -9e12 s to +9e12 s at half speed: 3.6e19 µs, clamped to the longest offset, 2^62 µs.
    @Test("a 1.8e13 s span at --speed 0.5 paces without overflow, and its loop saturates")
    func hugeSpanAtHalfSpeed() {
        let times = [
            EventTime(seconds: -9_000_000_000_000, microseconds: 0),
            EventTime(seconds: 9_000_000_000_000, microseconds: 0),
        ]
        for loop in [false, true] {
            var feeder = ReplayFeeder(recording: recording(times), speed: 0.5, loop: loop)
            feeder.start(at: 0)
            #expect(drain(&feeder, upTo: 0).times == [0])
            #expect(feeder.nextDue == 1 << 62)
            let end = drain(&feeder, upTo: .max)
            #expect(end.times == [1 << 62])
            #expect(end.passEnd == EventTime(microseconds: 1 << 62))
            let next: Int64? = loop ? (1 << 62) + 10_000 : nil
            #expect(feeder.nextDue == next)
        }
    }

    @Test("a start near the end of the monotonic clock saturates instead of trapping")
    func startNearTheEnd() {
        let times = [EventTime.zero, EventTime(microseconds: 1_000_000)]
        var feeder = ReplayFeeder(recording: recording(times), speed: 0.5, loop: true)
        feeder.start(at: .max - 5)
        #expect(drain(&feeder, upTo: .max).times == [.max - 5, .max])
        #expect(feeder.nextDue == .max)
        #expect(drain(&feeder, upTo: .max).times == [.max, .max])  // the next pass, at the end of time
    }

    @Test("without a loop the end is reported once, then nothing is due")
    func endReportedOnce() {
        var feeder = ReplayFeeder(recording: recording([.zero, EventTime(microseconds: 20)]))
        feeder.start(at: 0)
        #expect(drain(&feeder, upTo: 100).passEnd == EventTime(microseconds: 20))
        #expect(drain(&feeder, upTo: 1_000_000).passEnd == nil)
        #expect(feeder.nextDue == nil)
        #expect(feeder.isFinished)
    }
}
