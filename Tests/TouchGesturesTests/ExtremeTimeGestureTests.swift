import Testing
import TouchCore
import TouchGestures

/// Recognizers at the ends of event time (issue 11, item 5).
@Suite("Gestures at extreme times")
struct ExtremeTimeGestureTests {
    static let nearMax = EventTime.max.microseconds - 100_000  // 0.1 s before the end of time

    func sample(_ finger: UInt64, _ phase: TouchPhase, _ x: Double, at time: Int64) -> TouchSample {
        TouchSample(
            finger: FingerKey(rawValue: finger), phase: phase, location: Point(x: x, y: 0),
            time: EventTime(microseconds: time))
    }

    @Test("every recognizer survives a touch 0.1 s before the end of time: deadlines saturate at EventTime.max")
    func deadlinesSaturate() {
        for kind in GestureKind.allCases {
            var recognizer = Recognizer(spec: GestureSpec(kind))
            _ = recognizer.handle(sample(1, .down, 0, at: Self.nearMax))
            // Tap: +500 ms hold limit; long press: +500 ms; swipe: +500 ms. Each is past Int64.max.
            if let deadline = recognizer.deadline { #expect(deadline == .max, "\(kind)") }
            _ = recognizer.handle(sample(1, .move, 50, at: Self.nearMax + 50_000))
            _ = recognizer.handle(sample(1, .up, 50, at: EventTime.max.microseconds))
            _ = recognizer.fire(at: .max)
        }
    }

    @Test("a tap at the end of time waits for a second tap whose window saturated, and fires at the end")
    func doubleTapWindowAtTheEnd() {
        let h = GestureHarness([GestureSpec(.tap, name: "double").with { $0.taps = 2 }])
        let arena = h.arena
        _ = arena.feed(sample(1, .down, 0, at: Self.nearMax), to: [0])
        _ = arena.feed(sample(1, .up, 0, at: Self.nearMax + 50_000), to: [0])
        // The 300 ms double-tap window from 0.05 s before the end is past the end: it ends at EventTime.max.
        #expect(arena.nextDeadline == .max)
        let reports = arena.advance(to: .max)
        #expect(reports.isEmpty)  // a silent failure: the first tap reported nothing
        #expect(arena.nextDeadline == nil)
    }

    /// A single tap held 250 ms: its 500 ms hold limit (at 500) comes before the double-tap window closes (at
    /// 250 + 300 = 550). The held single must survive its own stale timer and fire at 550. At the end of time
    /// both deadlines saturate to the same instant, which is how this was found.
    @Test("a single tap held for its double-tap window is not failed by its own hold timer")
    func heldSingleSurvivesItsHoldTimer() {
        let h = GestureHarness.singleAndDouble()
        h.touch(1, .down, 50, 50, at: 0)
        h.touch(1, .up, 50, 50, at: 250)
        h.finish()
        #expect(h.log == ["single ended @550"])
    }

    @Test("velocity near the start of time: the 100 ms window does not underflow")
    func velocityAtTheStartOfTime() {
        let h = GestureHarness([GestureSpec(.drag)])
        let start = EventTime.min.microseconds
        for (index, phase) in [TouchPhase.down, .move, .move, .up].enumerated() {
            _ = h.arena.feed(sample(1, phase, Double(index) * 20, at: start + Int64(index) * 10_000), to: [0])
        }
        #expect(h.arena.recognizers[0].state == .ended)
    }
}

extension GestureSpec {
    func with(_ change: (inout GestureSpec) -> Void) -> GestureSpec {
        var copy = self
        change(&copy)
        return copy
    }
}
