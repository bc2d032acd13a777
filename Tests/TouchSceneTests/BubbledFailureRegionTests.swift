import Testing
import TouchCore
import TouchScene

/// docs/scene.md, "Bubbling": a finger feeds the gestures of the nearest region that asks for each kind, and a
/// gesture's events name the region whose gesture it is ("the drag is the child's, the tap is the card's"), as its
/// `pressing` does. A long press of the card heard through the button's finger fails when the finger is taken from it:
/// that failure is the card's too, whichever way the finger goes.
@Suite("A bubbled gesture's failure is reported on its own region")
struct BubbledFailureRegionTests {
    static let card = #"""
        {"size": [400, 400], "regions": [{"id": "card", "frame": [0, 0, 400, 400], "gestures": ["long-press"],
          "children": [{"id": "button", "frame": [100, 100, 100, 100]}]}]}
        """#

    func pressOnButton() -> DispatchHarness {
        let h = DispatchHarness(Self.card)
        h.send(.down, 1, 150, 150, at: 0)
        #expect(h.log == ["down 1 button", "long-press pressing card"])
        h.clear()
        return h
    }

    @Test("the button is removed from the scene: the card's press fails on the card")
    func buttonRemoved() {
        let h = pressOnButton()
        h.replace(
            #"{"size": [400, 400], "regions": [{"id": "card", "frame": [0, 0, 400, 400], "gestures": ["long-press"]}]}"#,
            at: 100)
        #expect(h.log == ["cancel 1 button", "long-press failed card"])
    }

    @Test("the card's gestures change under the held finger: its old press fails on the card")
    func cardGesturesChanged() {
        let h = pressOnButton()
        h.replace(
            Self.card.replacingOccurrences(
                of: #""gestures": ["long-press"]"#, with: #""gestures": ["long-press", "drag"]"#),
            at: 100)
        #expect(h.log == ["long-press failed card"])
    }

    @Test("the button is hidden in place: the card's press fails on the card")
    func buttonHiddenInPlace() throws {
        let h = pressOnButton()
        let node = try #require(h.dispatcher.index.index(of: "button"))
        var button = h.dispatcher.index.nodes[node].region
        button.hidden = true
        h.events += try #require(h.dispatcher.replaceRegion(node, with: button, at: EventTime(microseconds: 100_000)))
        #expect(h.log == ["cancel 1 button", "long-press failed card"])
    }
}
