import Testing
import TouchCore
import TouchGestures

/// A cancelled gesture reports where it had got to, so a client can undo what it applied (issue 11, item 10).
@Suite("Cancelled gestures")
struct CancelledGestureTests {
    @Test("a cancelled drag reports the last translation, not zero")
    func cancelledDragKeepsTranslation() {
        let h = GestureHarness([GestureSpec(.drag)])
        h.touch(1, .down, 0, 0, at: 0)
        h.touch(1, .move, 12, 0, at: 10)
        h.touch(1, .move, 40, 5, at: 20)
        h.touch(1, .cancel, 40, 5, at: 30)
        #expect(h.log == ["drag began @10", "drag changed @20", "drag cancelled @30"])
        #expect(h.events[2].translation == Point(x: 40, y: 5))
        #expect(h.events[2].velocity == .zero)  // nothing cancelled is flung
    }

    @Test("a cancelled pinch reports the last scale")
    func cancelledPinchKeepsScale() {
        let h = GestureHarness([GestureSpec(.pinch)])
        h.touch(1, .down, 0, 0, at: 0)
        h.touch(2, .down, 100, 0, at: 0)
        h.touch(2, .move, 200, 0, at: 10)
        h.touch(2, .cancel, 200, 0, at: 20)
        #expect(h.log == ["pinch began @10", "pinch cancelled @20"])
        #expect(h.events[1].scale == 2)
    }
}
