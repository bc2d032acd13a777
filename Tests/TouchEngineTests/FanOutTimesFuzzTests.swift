import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchScene
import TouchTestKit
import TouchWire

/// Device times of any kind (within one second, across seconds and digit counts, backwards, equal, near 0 and
/// Int64's end) print in a client's queue, whose writer keeps the last time's digits, as a new writer prints them.
@Suite("Engine: times through the queue's memo (random walks)")
struct FanOutTimesFuzzTests {
    @Test("random time walks", arguments: 0..<40)
    func walk(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &+ 7_000)
        func next(_ bound: Int) -> Int { random.below(bound) }
        let harness = EngineHarness(
            scene: Fixtures.scene(FanOutBytesTests.sceneJSON), settings: Fixtures.settings(queueBytes: 1 << 24))
        let expected = FanOutBytesTests.expectedStream(of: harness)
        let device = try harness.addDevice()
        let whole = try harness.client()
        try harness.subscribe(whole)
        let core = try harness.client()
        try harness.subscribe(core, #""fields":[]"#)
        let starts = [harness[whole].received.count, harness[core].received.count]
        let steps: [Int64] = [0, 1, 7, 999, 999_999, 1_000_000, 1_000_001, -1, -999_999, -1_000_000, 123_456_789]
        var time: Int64 = [0, 999_000, 9_999_000, Int64(next(1 << 30)) * 1000, .max - 5_000_000][next(5)]
        var down = false
        for frame in 0..<400 {
            if next(20) == 0 {
                // A jump to a digit-count boundary.
                var power: Int64 = 1
                for _ in 0..<next(19) { power *= 10 }
                time = power - Int64(next(3))
            } else {
                let step = steps[next(steps.count)]
                time = max(0, time.addingReportingOverflow(step).overflow ? .max : time + step)
            }
            let at = EventTime(microseconds: time)
            var events: [InputEvent] = []
            func abs(_ code: UInt16, _ value: Int32) {
                events.append(InputEvent(time: at, type: EventType.abs, code: code, value: value))
            }
            abs(AbsCode.mtSlot, 0)
            if !down {
                abs(AbsCode.mtTrackingID, Int32(frame + 1))
                down = true
            } else if next(10) == 0 {
                abs(AbsCode.mtTrackingID, -1)
                down = false
            }
            abs(AbsCode.mtPositionX, Int32(next(4096)))
            abs(AbsCode.mtPositionY, Int32(next(4096)))
            events.append(InputEvent(time: at, type: EventType.syn, code: SynCode.report, value: 0))
            harness.feed(events, from: device)
        }
        let stream = expected()
        #expect(stream.count > 20_000)
        let received = Array(harness[whole].received.dropFirst(starts[0]))
        #expect(FanOutBytesTests.same(received, stream), "seed \(seed)")
        let cut = FieldSelectionFanOutTests.cut(stream, keeping: [])
        let coreReceived = Array(harness[core].received.dropFirst(starts[1]))
        #expect(FanOutBytesTests.same(coreReceived, cut), "seed \(seed)")
    }
}
