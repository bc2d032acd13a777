import Testing
import TouchCore
import TouchGestures
import TouchScene

/// Gesture relations (docs/scene.md, "Relations") on hand-made finger streams; outcomes worked out by hand from
/// the defaults: slop 10, long press 500 ms, swipe 50 units within 500 ms, double-tap window 300 ms.
@Suite("Gesture relations")
struct RelationTests {
    func scene(_ regions: String) -> DispatchHarness {
        DispatchHarness(#"{"size": [400, 400], "regions": ["# + regions + "]}")
    }

    func gesture(_ h: DispatchHarness, _ name: String, _ state: GestureEventKind) -> GestureEvent? {
        h.events.lazy.compactMap { event -> GestureEvent? in
            if case .gesture(_, let g) = event, g.name == name, g.event == state { g } else { nil }
        }.first
    }

    // MARK: requireToFail

    static let dragAfterPress = #"""
        {"id": "r", "frame": [0, 0, 400, 400], "gestures": [
          {"type": "drag", "minimumDistance": 5, "requireToFail": ["long-press"]}, "long-press"]}
        """#

    /// The drag would begin at 7 units (100 ms); it waits, and the press completes at 500 ms: the drag fails.
    @Test("requireToFail: a drag that waits for a long press loses when the press completes")
    func dragWaitsAndLoses() {
        let h = scene(Self.dragAfterPress)
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.move, 1, 107, 100, at: 100)
        h.send(.move, 1, 108, 100, at: 200)
        h.send(.up, 1, 108, 100, at: 600)
        #expect(
            h.log == [
                "down 1 r", "long-press pressing r", "move 1 r", "move 1 r", "long-press began r", "up 1 r",
                "long-press ended r",
            ])
    }

    /// At 300 ms the finger is 20 units away: the press fails, and the drag held since 100 ms begins then, with
    /// the translation it was recognized with (7, 0); the next move reports the current one.
    @Test("requireToFail: a drag that waits for a long press begins when the press fails")
    func dragWaitsAndBegins() throws {
        let h = scene(Self.dragAfterPress)
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.move, 1, 107, 100, at: 100)
        h.send(.move, 1, 120, 100, at: 300)
        h.send(.move, 1, 130, 100, at: 350)
        h.send(.up, 1, 130, 100, at: 400)
        #expect(
            h.log == [
                "down 1 r", "long-press pressing r", "move 1 r", "move 1 r", "long-press failed r", "drag began r",
                "move 1 r", "drag changed r", "up 1 r", "drag ended r",
            ])
        let began = try #require(gesture(h, "drag", .began))
        #expect(began.time.microseconds == 300_000)
        #expect(began.translation == Point(x: 7, y: 0))
        #expect(gesture(h, "drag", .changed)?.translation == Point(x: 30, y: 0))
    }

    @Test("without requireToFail the drag begins at 7 units and the press fails at once")
    func dragWithoutRelation() {
        let h = scene(
            #"{"id": "r", "frame": [0, 0, 400, 400], "gestures": [{"type": "drag", "minimumDistance": 5}, "long-press"]}"#
        )
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.move, 1, 107, 100, at: 100)
        #expect(h.log == ["down 1 r", "long-press pressing r", "move 1 r", "drag began r", "long-press failed r"])
    }

    static let buttonInCard = #"""
        {"id": "card", "frame": [0, 0, 400, 400], "gestures": [{"type": "tap", "name": "double-tap", "taps": 2}],
         "children": [{"id": "button", "frame": [100, 100, 100, 100],
                       "gestures": [{"type": "tap", "requireToFail": ["card/double-tap"]}]}]}
        """#

    /// The card's double tap hears the button's finger although the button has a tap of its own (bubbling alone
    /// would stop at the button): the button's tap fires when the card's 300 ms window has passed.
    @Test("requireToFail across regions: a child's tap waits for its parent's double tap to fail")
    func childWaitsForParent() throws {
        let h = scene(Self.buttonInCard)
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.up, 1, 150, 150, at: 50)
        h.advance(to: 1000)
        #expect(h.log == ["down 1 button", "up 1 button", "tap ended button"])
        #expect(try #require(gesture(h, "tap", .ended)).time.microseconds == 350_000)
    }

    @Test("requireToFail across regions: two quick taps on the child are the parent's double tap only")
    func parentWins() {
        let h = scene(Self.buttonInCard)
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.up, 1, 150, 150, at: 50)
        h.send(.down, 2, 155, 150, at: 150)
        h.send(.up, 2, 155, 150, at: 200)
        h.advance(to: 1000)
        #expect(h.log == ["down 1 button", "up 1 button", "down 2 button", "up 2 button", "double-tap ended card"])
    }

    @Test("without requireToFail the child's tap fires at once and the parent's double tap never hears it")
    func childWithoutRelation() {
        let h = scene(Self.buttonInCard.replacingOccurrences(of: #", "requireToFail": ["card/double-tap"]"#, with: ""))
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.up, 1, 150, 150, at: 50)
        h.send(.down, 2, 155, 150, at: 150)
        h.send(.up, 2, 155, 150, at: 200)
        h.advance(to: 1000)
        #expect(
            h.log == [
                "down 1 button", "up 1 button", "tap ended button", "down 2 button", "up 2 button", "tap ended button",
            ])
    }

    /// The card's drag waits for the button's swipe; a finger on the card outside the button never reaches the
    /// swipe, so nothing holds the drag back (UIKit: a recognizer not part of the touch does not block).
    @Test("requireToFail: a gesture that never hears the finger does not hold the waiter back")
    func blockerThatNeverHears() {
        let h = scene(
            #"""
            {"id": "card", "frame": [0, 0, 400, 400], "gestures": [{"type": "drag", "requireToFail": ["button/swipe"]}],
             "children": [{"id": "button", "frame": [100, 100, 100, 100], "gestures": ["swipe"]}]}
            """#)
        h.send(.down, 1, 300, 300, at: 0)
        h.send(.move, 1, 320, 300, at: 50)
        h.send(.up, 1, 320, 300, at: 60)
        #expect(h.log == ["down 1 card", "move 1 card", "drag began card", "up 1 card", "drag ended card"])
        // On the button, the card's drag (bubbled) waits for the swipe; the finger lifts 30 units on, short of the
        // swipe's 50: the swipe fails at the lift, and a drag whose fingers lifted while it waited never began.
        h.clear()
        h.send(.down, 2, 150, 150, at: 1000)
        h.send(.move, 2, 180, 150, at: 1050)
        #expect(h.log == ["down 2 button", "move 2 button"])
        h.send(.up, 2, 180, 150, at: 1100)
        #expect(h.log == ["down 2 button", "move 2 button", "up 2 button"])
    }

    // MARK: priority

    static let listWithRow = #"""
        {"id": "list", "frame": [0, 0, 400, 400], "gestures": [{"type": "swipe", "priority": "high"}],
         "children": [{"id": "row", "frame": [0, 0, 400, 100], "gestures": ["tap", "drag"]}]}
        """#

    /// 100 units right in 120 ms: the list's swipe; the row's drag (held since 10 units) never begins.
    @Test("high priority: a flick on a row is the list's swipe, not the row's drag")
    func flickIsTheParentsSwipe() throws {
        let h = scene(Self.listWithRow)
        h.send(.down, 1, 100, 50, at: 0)
        h.send(.move, 1, 110, 50, at: 20)
        h.send(.move, 1, 200, 50, at: 100)
        h.send(.up, 1, 200, 50, at: 120)
        #expect(h.log == ["down 1 row", "move 1 row", "move 1 row", "up 1 row", "swipe ended list"])
        #expect(gesture(h, "swipe", .ended)?.direction == .right)
    }

    /// A slow drag: the swipe's 500 ms run out, and the row's drag, held since 100 ms, begins then.
    @Test("high priority: a slow drag on a row is the row's, once the list's swipe has failed")
    func slowDragIsTheChilds() throws {
        let h = scene(Self.listWithRow)
        h.send(.down, 1, 100, 50, at: 0)
        h.send(.move, 1, 120, 50, at: 100)
        h.send(.move, 1, 160, 50, at: 400)
        h.send(.move, 1, 200, 50, at: 600)
        h.send(.up, 1, 200, 50, at: 700)
        #expect(
            h.log == [
                "down 1 row", "move 1 row", "move 1 row", "drag began row", "move 1 row", "drag changed row",
                "up 1 row", "drag ended row",
            ])
        let began = try #require(gesture(h, "drag", .began))
        #expect(began.time.microseconds == 500_000)
        #expect(gesture(h, "drag", .ended)?.translation == Point(x: 100, y: 0))
    }

    @Test("high priority: a tap on a row is the row's tap, released when the swipe fails at the lift")
    func tapIsTheChilds() throws {
        let h = scene(Self.listWithRow)
        h.send(.down, 1, 100, 50, at: 0)
        h.send(.up, 1, 100, 50, at: 50)
        #expect(h.log == ["down 1 row", "up 1 row", "tap ended row"])
        #expect(try #require(gesture(h, "tap", .ended)).time.microseconds == 50_000)
    }

    @Test("without priority the row's drag begins at 10 units and the list's swipe fails")
    func flickWithoutPriority() {
        let h = scene(Self.listWithRow.replacingOccurrences(of: #", "priority": "high""#, with: ""))
        h.send(.down, 1, 100, 50, at: 0)
        h.send(.move, 1, 110, 50, at: 20)
        h.send(.move, 1, 200, 50, at: 100)
        h.send(.up, 1, 200, 50, at: 120)
        #expect(
            h.log == [
                "down 1 row", "move 1 row", "drag began row", "move 1 row", "drag changed row", "up 1 row",
                "drag ended row",
            ])
    }

    /// The same kind on both: the card's high-priority tap hears the child's finger and wins.
    @Test("high priority: a parent's tap is considered before its child's tap")
    func sameKind() {
        let json = #"""
            {"id": "card", "frame": [0, 0, 400, 400], "gestures": [{"type": "tap", "name": "select", "priority": "high"}],
             "children": [{"id": "button", "frame": [100, 100, 100, 100], "gestures": ["tap"]}]}
            """#
        let h = scene(json)
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.up, 1, 150, 150, at: 50)
        #expect(h.log == ["down 1 button", "up 1 button", "select ended card"])
        let plain = scene(json.replacingOccurrences(of: #", "priority": "high""#, with: ""))
        plain.send(.down, 1, 150, 150, at: 0)
        plain.send(.up, 1, 150, 150, at: 50)
        #expect(plain.log == ["down 1 button", "up 1 button", "tap ended button"])
    }

    // MARK: sequenced

    static let pressThenMove = #"""
        {"id": "r", "frame": [0, 0, 400, 400], "gestures": [
          {"type": "long-press", "name": "press"}, {"type": "drag", "name": "move"}], "sequenced": [["press", "move"]]}
        """#

    /// The press completes at 500 ms with the finger at (105, 100); the drag starts there and begins 20 units on.
    @Test("sequenced: a drag after a long press starts where the press completed")
    func pressThenDrag() throws {
        let h = scene(Self.pressThenMove)
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.move, 1, 105, 100, at: 300)
        h.send(.move, 1, 112, 100, at: 600)
        h.send(.move, 1, 125, 100, at: 700)
        h.send(.up, 1, 125, 100, at: 800)
        #expect(
            h.log == [
                "down 1 r", "press pressing r", "move 1 r", "press began r", "move 1 r", "press changed r", "move 1 r",
                "press changed r", "move began r", "up 1 r", "press ended r", "move ended r",
            ])
        #expect(try #require(gesture(h, "move", .began)).translation == Point(x: 20, y: 0))
        #expect(try #require(gesture(h, "move", .ended)).translation == Point(x: 20, y: 0))
    }

    @Test("sequenced: a drag without the press before it is nothing")
    func dragAlone() {
        let h = scene(Self.pressThenMove)
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.move, 1, 150, 100, at: 100)
        h.send(.up, 1, 150, 100, at: 200)
        #expect(h.log == ["down 1 r", "press pressing r", "move 1 r", "press failed r", "up 1 r"])
    }

    static let tapThenDrag = #"""
        {"id": "r", "frame": [0, 0, 400, 400], "gestures": ["tap", "drag"], "sequenced": [["tap", "drag"]]}
        """#

    @Test("sequenced: a tap, then a drag that goes down within 300 ms")
    func tapThenDragInTime() {
        let h = scene(Self.tapThenDrag)
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.up, 1, 100, 100, at: 50)
        h.send(.down, 2, 102, 100, at: 200)
        h.send(.move, 2, 130, 100, at: 260)
        h.send(.up, 2, 130, 100, at: 300)
        #expect(
            h.log == [
                "down 1 r", "up 1 r", "tap ended r", "down 2 r", "move 2 r", "drag began r", "up 2 r", "drag ended r",
            ])
        // A second drag straight after is not preceded by a tap: nothing.
        h.clear()
        h.send(.down, 3, 100, 100, at: 400)
        h.send(.move, 3, 150, 100, at: 450)
        h.send(.up, 3, 150, 100, at: 500)
        #expect(h.log == ["down 3 r", "move 3 r", "up 3 r"])
    }

    @Test("sequenced: a drag that goes down 350 ms after the tap is too late")
    func tapThenDragTooLate() {
        let h = scene(Self.tapThenDrag)
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.up, 1, 100, 100, at: 50)
        h.send(.down, 2, 102, 100, at: 400)
        h.send(.move, 2, 130, 100, at: 460)
        h.send(.up, 2, 130, 100, at: 500)
        #expect(h.log == ["down 1 r", "up 1 r", "tap ended r", "down 2 r", "move 2 r", "up 2 r"])
    }

    @Test("relations survive a scene change that keeps the region: the new arena is linked again")
    func relinkedAfterSceneChange() {
        let h = scene(Self.buttonInCard)
        h.replace(
            #"{"size": [400, 400], "regions": ["# + Self.buttonInCard
                + #", {"id": "x", "frame": [300, 300, 10, 10]}]}"#, at: 0)
        h.send(.down, 1, 150, 150, at: 10)
        h.send(.up, 1, 150, 150, at: 50)
        h.advance(to: 1000)
        #expect(h.log == ["down 1 button", "up 1 button", "tap ended button"])
        #expect(gesture(h, "tap", .ended)?.time.microseconds == 350_000)
    }
}

/// The example in docs/scene.md's "Relations", with the outcomes the text claims.
@Suite("The relations example of docs/scene.md")
struct RelationDocExampleTests {
    static let example = #"""
        {"id": "card", "frame": [0, 0, 400, 400],
         "gestures": [{"type": "tap", "name": "double-tap", "taps": 2}, {"type": "swipe", "priority": "high"}],
         "children": [
           {"id": "button", "frame": [100, 100, 100, 100],
            "gestures": [{"type": "tap", "requireToFail": ["card/double-tap"]}, {"type": "long-press", "name": "press"},
                         {"type": "drag", "name": "move"}],
            "sequenced": [["press", "move"]]}]}
        """#

    func harness() -> DispatchHarness { DispatchHarness(#"{"size": [400, 400], "regions": ["# + Self.example + "]}") }

    func gestures(_ h: DispatchHarness) -> [String] {
        h.events.compactMap { event in
            guard case .gesture(let region, let g) = event, g.event != .changed else { return nil }
            return "\(g.name) \(g.event.rawValue) \(region) @\(g.time.microseconds / 1000)"
        }
    }

    @Test("a tap on the button fires when the card's double-tap window has passed")
    func tap() {
        let h = harness()
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.up, 1, 150, 150, at: 50)
        h.advance(to: 2000)
        #expect(gestures(h) == ["press pressing button @0", "press failed button @50", "tap ended button @350"])
    }

    @Test("two taps are the card's double tap only")
    func doubleTap() {
        let h = harness()
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.up, 1, 150, 150, at: 50)
        h.send(.down, 2, 152, 150, at: 150)
        h.send(.up, 2, 152, 150, at: 200)
        h.advance(to: 2000)
        #expect(
            gestures(h) == [
                "press pressing button @0", "press failed button @50", "press pressing button @150",
                "press failed button @200", "double-tap ended card @200",
            ])
    }

    @Test("a flick across the button is the card's swipe and nothing of the button's")
    func flick() {
        let h = harness()
        h.send(.down, 1, 110, 150, at: 0)
        h.send(.move, 1, 150, 150, at: 50)
        h.send(.move, 1, 190, 150, at: 100)
        h.send(.up, 1, 190, 150, at: 120)
        h.advance(to: 2000)
        #expect(gestures(h) == ["press pressing button @0", "press failed button @50", "swipe ended card @120"])
    }

    @Test("a 500 ms press and then a drag: the move measures from where the press completed")
    func pressThenMove() throws {
        let h = harness()
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.move, 1, 152, 150, at: 400)
        h.send(.move, 1, 160, 150, at: 600)
        h.send(.move, 1, 175, 150, at: 700)
        h.send(.up, 1, 175, 150, at: 800)
        h.advance(to: 2000)
        #expect(
            gestures(h) == [
                "press pressing button @0", "press began button @500", "move began button @700",
                "press ended button @800", "move ended button @800",
            ])
        let moved = h.events.compactMap { event -> Point? in
            if case .gesture(_, let g) = event, g.name == "move", g.event == .ended { g.translation } else { nil }
        }
        #expect(moved == [Point(x: 23, y: 0)])
    }
}
