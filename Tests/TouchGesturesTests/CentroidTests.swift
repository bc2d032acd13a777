import Testing
import TouchCore
import TouchGestures

/// A drag reports its fingers' centroid as `location` and the centroid's movement as `translation`. One finger
/// takes a shortcut past the sum; these check it against values worked out by hand from the sum's own arithmetic
/// (a sum that starts at +0.0, so a finger at -0.0 is reported at +0.0), and the sum itself with two fingers.
@Suite("Recognizer centroid")
struct CentroidTests {
    @Test("one finger: its own position, -0.0 summed to +0.0, huge values kept")
    func oneFinger() {
        let h = GestureHarness([GestureSpec(.drag)])
        h.touch(1, .down, 30, 7.25, at: 0)
        h.touch(1, .move, -0.0, 7.25, at: 10)
        h.touch(1, .move, 1e308, -0.0, at: 20)
        h.touch(1, .up, 1e308, -0.0, at: 30)
        #expect(h.log == ["drag began @10", "drag changed @20", "drag ended @30"])
        guard h.events.count == 3 else { return }
        let began = h.events[0]
        #expect(began.location == Point(x: 0, y: 7.25))
        #expect(began.location.x.sign == .plus)
        #expect(began.translation == Point(x: -30, y: 0))
        let changed = h.events[1]
        #expect(changed.location == Point(x: 1e308, y: 0))
        #expect(changed.location.y.sign == .plus)
        #expect(changed.translation == Point(x: 1e308 - 30, y: -7.25))
        #expect(h.events[2].location == changed.location)
    }

    @Test("one finger down at -0.0: the start is +0.0 too")
    func negativeZeroStart() {
        let h = GestureHarness([GestureSpec(.drag)])
        h.touch(1, .down, -0.0, -0.0, at: 0)
        h.touch(1, .move, -0.0, -20, at: 10)
        guard let began = h.events.first else {
            Issue.record("no began")
            return
        }
        #expect(began.location == Point(x: 0, y: -20))
        #expect(began.location.x.sign == .plus)
        #expect(began.translation == Point(x: 0, y: -20))
        #expect(began.translation.x.sign == .plus)
    }

    @Test("two fingers: the mean of both")
    func twoFingers() {
        var spec = GestureSpec(.drag)
        spec.fingers = 2
        let h = GestureHarness([spec])
        h.touch(1, .down, 10, 20, at: 0)
        h.touch(2, .down, 31, 40.5, at: 5)
        h.touch(2, .move, 51, 40.5, at: 10)
        guard let began = h.events.first else {
            Issue.record("no began")
            return
        }
        #expect(began.location == Point(x: 30.5, y: 30.25))
        #expect(began.translation == Point(x: 10, y: 0))
        #expect(began.fingers == 2)
    }
}
