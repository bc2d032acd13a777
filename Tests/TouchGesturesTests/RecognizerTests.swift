import Testing
import TouchCore
import TouchGestures

@Suite("Gesture recognizers")
struct RecognizerTests {
    @Test("tap: down and up in place is one tap at the lift")
    func tap() {
        let h = GestureHarness([GestureSpec(.tap)])
        h.touch(1, .down, 100, 100, at: 0)
        h.touch(1, .move, 104, 103, at: 40)  // within the 10-unit slop
        h.touch(1, .up, 104, 103, at: 80)
        h.finish()
        #expect(h.log == ["tap ended @80"])
        #expect(h.events.first?.taps == 1)
        #expect(h.events.first?.location == Point(x: 104, y: 103))
    }

    @Test("tap fails when the finger moves too far or stays too long")
    func tapFailures() {
        let moved = GestureHarness([GestureSpec(.tap)])
        moved.touch(1, .down, 100, 100, at: 0)
        moved.touch(1, .move, 111, 100, at: 30)  // 11 > 10
        moved.touch(1, .up, 111, 100, at: 60)
        moved.finish()
        #expect(moved.log.isEmpty)

        let held = GestureHarness([GestureSpec(.tap)])
        held.touch(1, .down, 100, 100, at: 0)
        held.touch(1, .up, 100, 100, at: 700)  // over the 500 ms limit
        held.finish()
        #expect(held.log.isEmpty)
    }

    /// Single and double tap on one region: the single waits for the double to fail (its 300 ms window).
    @Test("single waits for double: one tap fires the single after the window, two taps fire only the double")
    func singleWaitsForDouble() {
        let one = GestureHarness.singleAndDouble()
        one.touch(1, .down, 50, 50, at: 0)
        one.touch(1, .up, 50, 50, at: 60)
        one.finish()
        #expect(one.log == ["single ended @360"])

        let two = GestureHarness.singleAndDouble()
        two.touch(1, .down, 50, 50, at: 0)
        two.touch(1, .up, 50, 50, at: 60)
        two.touch(2, .down, 55, 52, at: 200)
        two.touch(2, .up, 55, 52, at: 250)
        two.finish()
        #expect(two.log == ["double ended @250"])
        #expect(two.events.first?.taps == 2)
    }

    @Test("second tap too late: the single fires, the double fails")
    func secondTapTooLate() {
        let h = GestureHarness.singleAndDouble()
        h.touch(1, .down, 50, 50, at: 0)
        h.touch(1, .up, 50, 50, at: 60)
        h.touch(2, .down, 50, 50, at: 500)  // 440 ms after the first lift
        h.touch(2, .up, 50, 50, at: 550)
        h.finish()
        #expect(h.log == ["single ended @360", "single ended @850"])
    }

    /// The second tap comes in time (90 ms after the first lift) but 200 units away, beyond the double tap's slop:
    /// the double fails at that down, which releases the first single tap then (at 150); the second tap is a
    /// sequence of its own and fires at its lift (the failed double no longer holds it). It used to be lost: it
    /// went down while the first success was held, and so counted as part of it.
    @Test("a second tap in time but too far for the double: both single taps fire, each where it was")
    func secondTapTooFar() {
        let h = GestureHarness.singleAndDouble()
        h.touch(1, .down, 50, 50, at: 0)
        h.touch(1, .up, 50, 50, at: 60)
        h.touch(2, .down, 250, 50, at: 150)
        h.touch(2, .up, 250, 50, at: 200)
        h.finish()
        #expect(h.log == ["single ended @150", "single ended @200"])
        #expect(h.events.map(\.location) == [Point(x: 50, y: 50), Point(x: 250, y: 50)])

        // The far second finger held past the tap's 500 ms limit (counted from its own down): no second tap.
        let held = GestureHarness.singleAndDouble()
        held.touch(1, .down, 50, 50, at: 0)
        held.touch(1, .up, 50, 50, at: 60)
        held.touch(2, .down, 250, 50, at: 150)
        held.touch(2, .up, 250, 50, at: 700)
        held.finish()
        #expect(held.log == ["single ended @150"])
    }

    @Test("a two-finger tap and a one-finger tap on the same region both work")
    func twoFingerTap() {
        var two = GestureSpec(.tap, name: "two")
        two.fingers = 2
        let h = GestureHarness([GestureSpec(.tap, name: "one"), two])
        h.touch(1, .down, 100, 100, at: 0)
        h.touch(2, .down, 200, 100, at: 20)
        h.touch(1, .up, 100, 100, at: 90)
        h.touch(2, .up, 200, 100, at: 100)
        h.touch(3, .down, 300, 300, at: 400)
        h.touch(3, .up, 300, 300, at: 450)
        h.finish()
        #expect(h.log == ["two ended @100", "one ended @450"])
        #expect(h.events.first?.location == Point(x: 150, y: 100))
        #expect(h.events.first?.fingers == 2)
    }

    @Test("long press: pressing at once, began after 500 ms, changed on movement, ended on lift")
    func longPress() {
        let h = GestureHarness([GestureSpec(.longPress)])
        h.touch(1, .down, 10, 10, at: 0)
        h.touch(1, .move, 12, 10, at: 300)
        h.touch(1, .move, 40, 10, at: 700)
        h.touch(1, .up, 40, 10, at: 800)
        h.finish()
        #expect(
            h.log == [
                "long-press pressing @0", "long-press began @500", "long-press changed @700", "long-press ended @800",
            ])
    }

    @Test("long press fails when lifted early or moved too far, and says so after pressing")
    func longPressFailures() {
        let early = GestureHarness([GestureSpec(.longPress)])
        early.touch(1, .down, 10, 10, at: 0)
        early.touch(1, .up, 10, 10, at: 300)
        early.finish()
        #expect(early.log == ["long-press pressing @0", "long-press failed @300"])

        let moved = GestureHarness([GestureSpec(.longPress)])
        moved.touch(1, .down, 10, 10, at: 0)
        moved.touch(1, .move, 25, 10, at: 100)
        moved.finish()
        #expect(moved.log == ["long-press pressing @0", "long-press failed @100"])
    }

    @Test("drag: begins beyond the slop with the translation so far, ends with velocity")
    func drag() {
        let h = GestureHarness([GestureSpec(.drag)])
        h.touch(1, .down, 0, 0, at: 0)
        h.touch(1, .move, 5, 0, at: 10)
        h.touch(1, .move, 12, 0, at: 20)
        h.touch(1, .move, 30, 0, at: 30)
        h.touch(1, .up, 30, 0, at: 40)
        #expect(h.log == ["drag began @20", "drag changed @30", "drag ended @40"])
        #expect(h.events[0].translation == Point(x: 12, y: 0))
        #expect(h.events[2].translation == Point(x: 30, y: 0))
        // All samples lie in the 100 ms window: from (0,0) at 0 ms to (30,0) at 30 ms, 1000 units/s.
        #expect(abs(h.events[2].velocity.x - 1000) < 0.001)
    }

    @Test("long press then drag: movement before the press fails it; after the press it drags")
    func longPressDrag() {
        let h = GestureHarness([GestureSpec(.longPressDrag)])
        h.touch(1, .down, 100, 100, at: 0)
        h.touch(1, .move, 103, 100, at: 200)  // within the allowable movement
        h.touch(1, .move, 150, 120, at: 600)
        h.touch(1, .up, 160, 120, at: 650)
        #expect(
            h.log == [
                "long-press-drag pressing @0", "long-press-drag began @500", "long-press-drag changed @600",
                "long-press-drag ended @650",
            ])
        #expect(h.events[2].translation == Point(x: 47, y: 20))  // from (103,100), where the press completed

        let early = GestureHarness([GestureSpec(.longPressDrag)])
        early.touch(1, .down, 100, 100, at: 0)
        early.touch(1, .move, 150, 100, at: 100)
        early.touch(1, .up, 150, 100, at: 150)
        #expect(early.log == ["long-press-drag pressing @0", "long-press-drag failed @100"])
    }

    @Test("swipe: direction from the travel; too slow or a refused direction fails")
    func swipe() {
        let right = GestureHarness([GestureSpec(.swipe)])
        right.touch(1, .down, 0, 100, at: 0)
        right.touch(1, .move, 40, 110, at: 50)
        right.touch(1, .up, 80, 115, at: 100)  // 15 down over 80 right: 10.6°, within 30°
        #expect(right.log == ["swipe ended @100"])
        #expect(right.events.first?.direction == .right)

        let slow = GestureHarness([GestureSpec(.swipe)])
        slow.touch(1, .down, 0, 100, at: 0)
        slow.touch(1, .up, 80, 100, at: 600)
        slow.finish()
        #expect(slow.log.isEmpty)

        var leftOnly = GestureSpec(.swipe)
        leftOnly.directions = [.left]
        let refused = GestureHarness([leftOnly])
        refused.touch(1, .down, 0, 100, at: 0)
        refused.touch(1, .up, 80, 100, at: 100)
        #expect(refused.log.isEmpty)

        var twoUp = GestureSpec(.swipe)
        twoUp.fingers = 2
        let up = GestureHarness([twoUp])
        up.touch(1, .down, 100, 300, at: 0)
        up.touch(2, .down, 200, 300, at: 10)
        up.touch(1, .move, 100, 200, at: 60)
        up.touch(2, .move, 200, 210, at: 60)
        up.touch(1, .up, 100, 200, at: 90)
        up.touch(2, .up, 200, 210, at: 95)
        #expect(up.events.first?.direction == .up)
        #expect(up.events.first?.fingers == 2)
    }

    @Test("pinch and rotate run together when declared simultaneous; scale and angle are relative to the start")
    func pinchAndRotate() {
        let h = GestureHarness([GestureSpec(.pinch), GestureSpec(.rotate)], simultaneous: ["pinch", "rotate"])
        h.touch(1, .down, 100, 100, at: 0)
        h.touch(2, .down, 200, 100, at: 0)
        // Spread to 200 apart and turn the line by 90° clockwise (y grows downwards): (150,0) → (150,200).
        h.touch(1, .move, 150, 0, at: 50)
        h.touch(2, .move, 150, 200, at: 50)
        h.touch(2, .up, 150, 200, at: 100)
        let pinch = h.events.filter { $0.kind == .pinch }
        let rotate = h.events.filter { $0.kind == .rotate }
        #expect(pinch.map(\.event) == [.began, .changed, .ended])
        // The first finger's move alone turns the line by atan2(100, 50) = 63.4° (> 5°): began; the second: changed.
        #expect(rotate.map(\.event) == [.began, .changed, .ended])
        #expect(abs(pinch.last!.scale - 2) < 1e-9)
        #expect(abs(rotate.last!.rotation - 90) < 1e-9)
    }

    @Test("exclusive by default: a drag that begins cancels the pending long press")
    func exclusivity() {
        let h = GestureHarness([GestureSpec(.longPress), GestureSpec(.drag)])
        h.touch(1, .down, 0, 0, at: 0)
        h.touch(1, .move, 20, 0, at: 100)
        h.touch(1, .up, 20, 0, at: 150)
        h.finish()
        #expect(h.log == ["long-press pressing @0", "long-press failed @100", "drag began @100", "drag ended @150"])
    }
}
