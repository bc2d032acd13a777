import Foundation
import Testing
import TouchCore
import TouchGestures
import TouchScene

@Suite("Dispatcher")
struct DispatcherTests {
    @Test("seed: a down outside square 3's centre half but inside square 2's goes to square 2")
    func seedSingleFinger() {
        let h = DispatchHarness(seedSceneJSON)
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.up, 1, 150, 150, at: 50)
        #expect(h.log == ["down 1 square2", "up 1 square2"])
    }

    @Test("seed: two fingers at once go to two squares, each captured on its own")
    func seedSplitTouch() {
        let h = DispatchHarness(seedSceneJSON)
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.down, 2, 250, 250, at: 0)
        h.frame(at: 0)
        h.send(.move, 1, 160, 150, at: 10)
        h.send(.move, 2, 260, 250, at: 10)
        h.send(.up, 1, 160, 150, at: 20)
        h.send(.up, 2, 260, 250, at: 20)
        #expect(
            h.log == [
                "down 1 square2", "down 2 square3", "moved square2", "move 1 square2", "moved square3",
                "move 2 square3",
                "up 1 square2", "up 2 square3",
            ])
    }

    /// Square 1 (centre half 75..125) is dragged by (+200, +200): its centre half is then 275..325, where before
    /// square 3 would have taken the touch; square 1's z is lowest, so a point only it covers is needed:
    /// the drag moves it clear of the others, to (400, 400) with centre half 425..475.
    @Test("seed: a drag moves the square, and the next down hits it at its new place")
    func seedDragMoves() {
        let h = DispatchHarness(seedSceneJSON)
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.move, 1, 250, 250, at: 20)
        h.send(.move, 1, 450, 450, at: 40)
        h.send(.up, 1, 450, 450, at: 60)
        #expect(h.dispatcher.index["square1"]?.region.frame == Rect(x: 400, y: 400, width: 100, height: 100))
        h.clear()
        h.send(.down, 2, 450, 450, at: 100)
        #expect(h.log == ["down 2 square1"])
        h.send(.down, 3, 100, 100, at: 100)  // its old place: now nothing there
        #expect(h.touches.last?.region == nil)
    }

    @Test("capture: a finger keeps its region when it moves outside; fields are filled in")
    func captureAndFields() {
        let h = DispatchHarness(#"{"size": [400, 400], "regions": [{"id": "a", "frame": [100, 100, 50, 50]}]}"#)
        h.send(.down, 1, 110, 120, at: 0)
        h.send(.move, 1, 300, 320, at: 30)
        h.send(.up, 1, 310, 320, at: 45)
        let touches = h.touches
        #expect(touches.map(\.region) == ["a", "a", "a"])
        let move = touches[1]
        #expect(move.local == Point(x: 200, y: 220))
        #expect(move.previous == Point(x: 110, y: 120))
        #expect(move.translation == Point(x: 190, y: 200))
        #expect(move.sinceDown == .milliseconds(30))
        #expect(touches[2].previous == Point(x: 300, y: 320))
    }

    @Test("tap count grows for quick taps on the same region and resets after a pause")
    func tapCount() {
        let h = DispatchHarness(#"{"size": [400, 400], "regions": [{"id": "a", "frame": [0, 0, 200, 200]}]}"#)
        for (index, start) in [0, 150, 300, 1000].enumerated() {
            h.send(.down, UInt32(index + 1), 50, 50, at: Int64(start))
            h.send(.up, UInt32(index + 1), 50, 50, at: Int64(start + 40))
        }
        #expect(h.touches.filter { $0.phase == .down }.map(\.tapCount) == [1, 2, 3, 1])
    }

    @Test("a finger that hits nothing is reported without a region, or dropped when asked")
    func unassigned() {
        let json = #"{"size": [400, 400], "regions": [{"id": "a", "frame": [0, 0, 10, 10]}]}"#
        let reported = DispatchHarness(json)
        reported.send(.down, 1, 300, 300, at: 0)
        reported.send(.up, 1, 300, 300, at: 10)
        #expect(reported.log == ["down 1 -", "up 1 -"])
        let dropped = DispatchHarness(json, options: Dispatcher.Options(dropUnassigned: true))
        dropped.send(.down, 1, 300, 300, at: 0)
        dropped.send(.up, 1, 300, 300, at: 10)
        #expect(dropped.log.isEmpty)
    }

    @Test("scene change: removed or hidden region → exactly one cancel, then silence; a moved region keeps its finger")
    func cancelOnSceneChange() {
        let h = DispatchHarness(
            """
            {"size": [400, 400], "regions": [
              {"id": "a", "frame": [0, 0, 100, 100]}, {"id": "b", "frame": [200, 0, 100, 100]},
              {"id": "c", "frame": [0, 200, 100, 100], "gestures": ["long-press"]}]}
            """)
        h.send(.down, 1, 50, 50, at: 0)
        h.send(.down, 2, 250, 50, at: 0)
        h.send(.down, 3, 50, 250, at: 0)
        h.clear()
        h.replace(
            """
            {"size": [400, 400], "regions": [
              {"id": "b", "frame": [210, 0, 100, 100]},
              {"id": "c", "frame": [0, 200, 100, 100], "gestures": ["long-press"], "hidden": true}]}
            """, at: 100)
        #expect(h.log == ["cancel 1 a", "cancel 3 c", "long-press failed c"])
        h.clear()
        h.send(.move, 1, 60, 50, at: 110)
        h.send(.move, 2, 260, 50, at: 110)
        h.send(.move, 3, 60, 250, at: 110)
        h.send(.up, 1, 60, 50, at: 120)
        h.send(.up, 2, 260, 50, at: 120)
        h.send(.up, 3, 60, 250, at: 120)
        h.advance(to: 2000)
        #expect(h.log == ["move 2 b", "up 2 b"])
        #expect(h.dispatcher.liveFingerCount == 0)
    }

    @Test("a cancel from the decoder (palm, device lost) ends the touch and cancels its gesture")
    func decoderCancel() {
        let h = DispatchHarness(
            #"{"size": [400, 400], "regions": [{"id": "a", "frame": [0, 0, 400, 400], "gestures": ["drag"]}]}"#)
        h.send(.down, 1, 50, 50, at: 0)
        h.send(.move, 1, 80, 50, at: 20)
        h.send(.cancel, 1, 80, 50, at: 40)
        // Raw event first, then what the recognizers make of it.
        #expect(h.log == ["down 1 a", "move 1 a", "drag began a", "cancel 1 a", "drag cancelled a"])
    }

    @Test("gestures bubble: a tap on a raw-only child goes to the nearest ancestor with a tap")
    func bubbling() {
        let h = DispatchHarness(
            """
            {"size": [400, 400], "regions": [
              {"id": "card", "frame": [0, 0, 300, 300], "gestures": ["tap", "drag"], "children": [
                {"id": "icon", "frame": [10, 10, 50, 50], "gestures": ["drag"]}]}]}
            """)
        h.send(.down, 1, 20, 20, at: 0)
        h.send(.up, 1, 20, 20, at: 50)
        h.send(.down, 2, 20, 20, at: 500)
        h.send(.move, 2, 60, 20, at: 520)
        h.send(.up, 2, 60, 20, at: 540)
        h.advance(to: 2000)
        // The icon has its own drag, so the drag stays with it; it has no tap, so the tap is the card's.
        #expect(
            h.log == [
                "down 1 icon", "up 1 icon", "tap ended card", "down 2 icon", "move 2 icon", "drag began icon",
                "up 2 icon", "drag ended icon",
            ])
    }

    static let listJSON = """
        {"size": [400, 800], "regions": [
          {"id": "list", "frame": [0, 0, 400, 800], "intercept": {"slop": 10, "delayMs": DELAY}, "gestures": ["drag"],
           "children": [{"id": "button", "frame": [0, 0, 400, 100], "gestures": ["tap"]}]}]}
        """

    @Test("scroll container: a drag beyond the slop takes the finger; the child gets one cancel")
    func interceptWithoutDelay() {
        let h = DispatchHarness(Self.listJSON.replacingOccurrences(of: "DELAY", with: "0"))
        h.send(.down, 1, 50, 50, at: 0)
        h.send(.move, 1, 50, 55, at: 20)
        h.send(.move, 1, 50, 80, at: 40)
        h.send(.up, 1, 50, 200, at: 60)
        h.advance(to: 2000)
        #expect(
            h.log == [
                "down 1 button", "move 1 button", "cancel 1 button", "down 1 list", "move 1 list",
                "drag began list", "up 1 list", "drag ended list",
            ])
    }

    @Test("scroll container with a 150 ms delay: a quick scroll never reaches the child; a tap does")
    func interceptWithDelay() {
        let json = Self.listJSON.replacingOccurrences(of: "DELAY", with: "150")
        let scroll = DispatchHarness(json)
        scroll.send(.down, 1, 50, 50, at: 0)
        scroll.send(.move, 1, 50, 90, at: 30)
        scroll.send(.up, 1, 50, 150, at: 60)
        #expect(!scroll.log.contains { $0.contains("button") })
        #expect(scroll.log.first == "down 1 list")

        let tap = DispatchHarness(json)
        tap.send(.down, 1, 50, 50, at: 0)
        tap.send(.up, 1, 50, 50, at: 60)
        tap.advance(to: 2000)
        #expect(tap.log == ["down 1 button", "up 1 button", "tap ended button"])

        let hold = DispatchHarness(json)
        hold.send(.down, 1, 50, 50, at: 0)
        hold.advance(to: 150)
        #expect(hold.log == ["down 1 button"])  // delivered when the delay ran out
    }
}

@Suite("Dispatcher across scene changes")
struct SceneChangeGestureTests {
    @Test("a long press survives a scene change that leaves its region's gestures as they were")
    func longPressCarriesOver() {
        let json =
            #"{"size": [400, 400], "regions": [{"id": "a", "frame": [0, 0, 100, 100], "gestures": ["long-press"]}]}"#
        let h = DispatchHarness(json)
        h.send(.down, 1, 50, 50, at: 0)
        h.replace(
            #"{"size": [400, 400], "regions": [{"id": "b", "frame": [200, 200, 10, 10]}, {"id": "a", "frame": [5, 0, 100, 100], "gestures": ["long-press"]}]}"#,
            at: 100)
        h.advance(to: 600)
        h.send(.up, 1, 50, 50, at: 700)
        #expect(h.log == ["down 1 a", "long-press pressing a", "long-press began a", "up 1 a", "long-press ended a"])
    }

    /// A finger dragging a region can end without lifting on it: its region is disabled under it (cancel), or a
    /// scroll container takes it. Either way the region must be free for the next finger (an attack found it
    /// stayed claimed by the dead finger for good).
    static let dragScene = """
        {"size": [1000, 1000], "regions": [
          {"id": "list", "frame": [0, 0, 1000, 1000], "intercept": {"slop": 10}, "children": [
            {"id": "knob", "frame": [100, 100, 50, 50], "draggable": true}]}]}
        """

    @Test("a knob whose dragging finger was cancelled by a scene change is dragged by the next finger")
    func dragClaimReleasedOnSceneCancel() {
        let harness = DispatchHarness(Self.dragScene)
        harness.send(.down, 1, 120, 120, at: 0)
        harness.send(.move, 1, 125, 120, at: 10)
        #expect(harness.log == ["down 1 knob", "moved knob", "move 1 knob"])
        let disabled = Self.dragScene.replacingOccurrences(
            of: "\"draggable\": true", with: "\"draggable\": true, \"enabled\": false")
        harness.replace(disabled, at: 20)
        harness.replace(Self.dragScene, at: 30)
        harness.send(.up, 1, 125, 120, at: 40)
        harness.clear()
        // The knob is back at 100,100 (the new scene's frame): finger 2 takes it and moves it 5 right.
        harness.send(.down, 2, 120, 120, at: 50)
        harness.send(.move, 2, 125, 120, at: 60)
        #expect(harness.log == ["down 2 knob", "moved knob", "move 2 knob"])
    }

    @Test("a knob whose dragging finger the scroll container took is dragged by the next finger")
    func dragClaimReleasedOnIntercept() {
        let harness = DispatchHarness(Self.dragScene)
        harness.send(.down, 1, 120, 120, at: 0)
        harness.send(.move, 1, 120, 140, at: 10)  // 20 down: past the list's slop, the list takes the finger
        #expect(harness.log.contains("cancel 1 knob") && harness.log.contains("down 1 list"))
        harness.send(.up, 1, 120, 140, at: 20)
        harness.clear()
        harness.send(.down, 2, 120, 120, at: 30)
        harness.send(.move, 2, 123, 120, at: 40)  // within the slop: the knob keeps the finger and follows it
        #expect(harness.log == ["down 2 knob", "moved knob", "move 2 knob"])
    }
}
