import Testing
import TouchCore
import TouchScene

/// A child whose finger a container took past its slop gets its gestures back with the next touch: UIKit cancels the
/// touches of a view's recognizers when its scroll view takes them (`touchesCancelled`), the recognizers go to
/// failed or cancelled and reset, and the next touch sequence is recognized as if nothing had happened.
@Suite("Intercepted children")
struct InterceptedChildTests {
    /// A 200×200 list at (100, 100) over 200×600 of content; "row" fills its first 100 units and taps.
    static let scrolling = #"""
        {"size": [400, 800], "regions": [
          {"id": "list", "frame": [100, 100, 200, 200], "scroll": {"contentSize": [200, 600]},
           "children": [{"id": "row", "frame": [0, 0, 200, 100], "gestures": ["tap"]},
                        {"id": "other", "frame": [0, 100, 200, 100], "gestures": ["tap"]}]}]}
        """#

    /// The same row in a container that only intercepts (slop 10, no delay) and scrolls nothing.
    static let intercepting = #"""
        {"size": [400, 800], "regions": [
          {"id": "list", "frame": [100, 100, 200, 200], "intercept": {"slop": 10},
           "children": [{"id": "row", "frame": [0, 0, 200, 100], "gestures": ["tap"]}]}]}
        """#

    /// Finger 1 goes down on the row at (200, 150) and moves 40 along `dy` (past the slop of 10), so the container
    /// takes it, and lifts; finger 2 taps still on the same row `pause` ms later.
    func scrollThenTap(_ scene: String, dy: Double, pause: Int64) -> [String] {
        let h = DispatchHarness(scene)
        h.send(.down, 1, 200, 150, at: 0)
        h.send(.move, 1, 200, 150 + dy / 2, at: 10)
        h.send(.move, 1, 200, 150 + dy, at: 20)
        h.send(.up, 1, 200, 150 + dy, at: 30)
        h.advance(to: 30 + pause)
        h.clear()
        h.send(.down, 2, 200, 150, at: 30 + pause)
        h.send(.up, 2, 200, 150, at: 30 + pause + 50)
        return h.log.filter { $0.hasPrefix("tap ") }
    }

    @Test("after a scroll took its finger, a still tap on the same row is a tap", arguments: [0, 400, 1500] as [Int64])
    func tapAfterScroll(pause: Int64) {
        #expect(scrollThenTap(Self.scrolling, dy: -40, pause: pause) == ["tap ended row"])
    }

    @Test("after a drag down at the top of the list (the offset stays 0), a still tap on the row is a tap")
    func tapAfterDragAtTop() {
        #expect(scrollThenTap(Self.scrolling, dy: 40, pause: 400) == ["tap ended row"])
    }

    @Test("after a plain intercepting container took its finger, a still tap on the row is a tap")
    func tapAfterIntercept() {
        #expect(scrollThenTap(Self.intercepting, dy: 40, pause: 400) == ["tap ended row"])
    }

    @Test("the taken finger's second finger on the row, still down when the first was taken, ends the row's touch")
    func otherFingerStillDown() {
        let h = DispatchHarness(Self.intercepting)
        h.send(.down, 1, 200, 150, at: 0)
        h.send(.down, 2, 250, 150, at: 5)
        h.send(.move, 1, 200, 190, at: 20)  // taken: the row's tap fails
        h.send(.up, 2, 250, 150, at: 30)  // the row's tap has failed: nothing
        h.send(.up, 1, 200, 190, at: 40)
        h.clear()
        h.send(.down, 3, 200, 150, at: 500)
        h.send(.up, 3, 200, 150, at: 550)
        #expect(h.log.filter { $0.hasPrefix("tap ") } == ["tap ended row"])
    }
}
