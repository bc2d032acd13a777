import Testing
import TouchCore
import TouchGestures

/// A drag follows the fingers it began with, as UIKit's pan with `maximumNumberOfTouches` equal to its minimum: a
/// finger that goes down later is not in its centroid, and its moves and lift change nothing.
@Suite("Drag follows its own fingers")
struct DragOwnFingersTests {
    @Test("a one-finger drag ignores a second finger: its centroid, moves and lift")
    func secondFingerIgnored() {
        let h = GestureHarness([GestureSpec(.drag)])
        h.touch(1, .down, 0, 0, at: 0)
        h.touch(1, .move, 12, 0, at: 20)  // 12 > the slop of 10: began
        h.touch(2, .down, 100, 100, at: 30)
        h.touch(2, .move, 110, 100, at: 40)  // not the drag's finger: no report
        h.touch(1, .move, 30, 0, at: 50)
        h.touch(2, .up, 110, 100, at: 60)  // does not end the drag
        h.touch(1, .move, 40, 0, at: 70)
        h.touch(1, .up, 40, 0, at: 80)
        #expect(h.log == ["drag began @20", "drag changed @50", "drag changed @70", "drag ended @80"])
        // Finger 1 alone: where it is, how far it went from (0, 0), one finger.
        #expect(
            h.events.map(\.translation) == [
                Point(x: 12, y: 0), Point(x: 30, y: 0), Point(x: 40, y: 0), Point(x: 40, y: 0),
            ])
        #expect(
            h.events.map(\.location) == [
                Point(x: 12, y: 0), Point(x: 30, y: 0), Point(x: 40, y: 0), Point(x: 40, y: 0),
            ])
        #expect(h.events.allSatisfy { $0.fingers == 1 })
        // Its samples from (0, 0) at 0 ms to (40, 0) at 70 ms, all in the 100 ms window: 40 / 0.07 units/s along x.
        #expect(abs(h.events[3].velocity.x - 40 / 0.07) < 0.001)
        #expect(h.events[3].velocity.y == 0)
    }

    @Test("the drag's own finger lifting ends it while the later finger is still down")
    func ownFingerEnds() {
        let h = GestureHarness([GestureSpec(.drag)])
        h.touch(1, .down, 0, 0, at: 0)
        h.touch(1, .move, 20, 0, at: 20)
        h.touch(2, .down, 100, 100, at: 30)
        h.touch(1, .up, 20, 0, at: 40)
        h.touch(2, .move, 150, 100, at: 50)
        h.touch(2, .up, 150, 100, at: 60)
        #expect(h.log == ["drag began @20", "drag ended @40"])
        #expect(h.events[1].translation == Point(x: 20, y: 0))
    }
}
