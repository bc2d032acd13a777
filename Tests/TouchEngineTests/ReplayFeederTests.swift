import Testing
import TouchCore
import TouchEngine
import TouchFormats

/// `touchd run --replay` pacing at any recorded time and speed (issue 11, items 5 and 6).
@Suite("Replay feeder: pacing, loops and ends of passes")
struct ReplayFeederTests {
    /// A feeder and the reader the daemon is to it: the recording's events handed over `chunk` at a time when the
    /// feeder asks, from the start again at each pass.
    struct Fed {
        var feeder: ReplayFeeder
        let events: [InputEvent]
        var chunk = 4096
        var read = 0
        /// The most events the feeder held at once.
        var mostHeld = 0

        init(_ times: [EventTime], speed: Double = 1, loop: Bool = false, chunk: Int = 4096) {
            events = times.map { InputEvent(time: $0, type: EventType.syn, code: SynCode.report, value: 0) }
            feeder = ReplayFeeder(firstTime: times.first, speed: speed, loop: loop)
            self.chunk = chunk
        }

        /// The events due by `now`, up to a pass's end, whose time comes back too.
        mutating func drain(upTo now: Int64) -> (times: [Int64], passEnd: EventTime?) {
            var due: [InputEvent] = []
            while true {
                switch feeder.due(upTo: now, into: &due) {
                case .waiting, .finished: return (due.map(\.time.microseconds), nil)
                case .passEnded(let end): return (due.map(\.time.microseconds), end)
                case .nextPass: read = 0
                case .needsEvents:
                    guard read < events.count else {
                        feeder.endOfEvents()
                        continue
                    }
                    let end = min(read + chunk, events.count)
                    feeder.append(events[read..<end])
                    read = end
                    mostHeld = max(mostHeld, feeder.heldCount)
                }
            }
        }
    }

    /// Times 1.000, 1.000, 1.010 and a last event 0.5 s before the first. Offsets 0, 0, 10 ms, and the last
    /// plays as no time passing (10 ms). A pass: its 10 ms plus the 10 ms gap = 20 ms; before, it was 1 µs.
    @Test("a recording whose last time is before its first: due times never go back, a pass lasts 20 ms")
    func backwardsLoop() {
        let times = [1_000_000, 1_000_000, 1_010_000, 500_000].map { EventTime(microseconds: $0) }
        var feeder = Fed(times, loop: true)
        feeder.feeder.start(at: 1_000_000)
        #expect(feeder.drain(upTo: 1_005_000).times == [1_000_000, 1_000_000])
        let end = feeder.drain(upTo: 1_010_000)
        #expect(end.times == [1_010_000, 1_010_000])
        #expect(end.passEnd == EventTime(microseconds: 1_010_000))
        #expect(feeder.feeder.nextDue == 1_020_000)
        #expect(feeder.drain(upTo: 1_019_999).times.isEmpty)
        #expect(feeder.drain(upTo: 1_020_000).times == [1_020_000, 1_020_000])
        #expect(feeder.feeder.passes == 1)
    }

    @Test("a pass is never shorter than 10 ms: one event, or every time equal, or an infinite speed")
    func shortestPass() {
        for (times, speed) in [
            ([EventTime(microseconds: 5)], 1.0), ([.zero, .zero, .zero], 1), ([.zero, .max], .infinity),
        ] {
            var feeder = Fed(times, speed: speed, loop: true)
            feeder.feeder.start(at: 100)
            #expect(feeder.drain(upTo: 100).passEnd == EventTime(microseconds: 100))
            #expect(feeder.feeder.nextDue == 10_100)
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
            var feeder = Fed(times, speed: 0.5, loop: loop)
            feeder.feeder.start(at: 0)
            #expect(feeder.drain(upTo: 0).times == [0])
            #expect(feeder.feeder.nextDue == 1 << 62)
            let end = feeder.drain(upTo: .max)
            #expect(end.times == [1 << 62])
            #expect(end.passEnd == EventTime(microseconds: 1 << 62))
            let next: Int64? = loop ? (1 << 62) + 10_000 : nil
            #expect(feeder.feeder.nextDue == next)
        }
    }

    @Test("a start near the end of the monotonic clock saturates instead of trapping")
    func startNearTheEnd() {
        let times = [EventTime.zero, EventTime(microseconds: 1_000_000)]
        var feeder = Fed(times, speed: 0.5, loop: true)
        feeder.feeder.start(at: .max - 5)
        #expect(feeder.drain(upTo: .max).times == [.max - 5, .max])
        #expect(feeder.feeder.nextDue == .max)
        #expect(feeder.drain(upTo: .max).times == [.max, .max])  // the next pass, at the end of time
    }

    @Test("without a loop the end is reported once, then nothing is due")
    func endReportedOnce() {
        var feeder = Fed([.zero, EventTime(microseconds: 20)])
        feeder.feeder.start(at: 0)
        #expect(feeder.drain(upTo: 100).passEnd == EventTime(microseconds: 20))
        #expect(feeder.drain(upTo: 1_000_000).passEnd == nil)
        #expect(feeder.feeder.nextDue == nil)
    }

    /// 100,000 events 1 ms apart, handed over 4,096 at a time: the feeder holds no more than one hand-over, and
    /// plays every event at its offset, pass after pass.
    @Test("a long recording plays holding one batch at a time, in every pass of a loop")
    func holdsOneBatch() {
        let times = (0..<100_000).map { EventTime(microseconds: Int64($0) * 1000) }
        var fed = Fed(times, loop: true, chunk: 4096)
        fed.feeder.start(at: 0)
        let first = fed.drain(upTo: 99_999_000)
        #expect(first.times == (0..<100_000).map { Int64($0) * 1000 })
        #expect(first.passEnd == EventTime(microseconds: 99_999_000))
        #expect(fed.feeder.nextDue == 100_009_000)
        // The second pass starts 10 ms after the first's last event, and is read again from the start.
        let second = fed.drain(upTo: 100_009_000 + 4_095_500)
        #expect(second.times == (0..<4096).map { 100_009_000 + Int64($0) * 1000 })
        #expect(fed.feeder.passes == 1)
        #expect(fed.mostHeld == 4096)
    }
}
