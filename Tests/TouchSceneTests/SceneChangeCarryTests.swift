import Testing
import TouchCore
import TouchGestures
import TouchScene

/// Recognizers carried over a scene change mid-gesture (docs/scene.md: a region whose gestures, `simultaneous` and
/// `sequenced` stay as they were keeps its recognizers, and a finger whose region goes away gets one `cancel` and its
/// gestures are cancelled). Each new scene puts a region first, so every carried recognizer lands at another index of
/// the new arena. Outcomes worked out from the defaults: slop 10, long press 500 ms, double-tap window 300 ms.
@Suite("Recognizers carried over a scene change")
struct SceneChangeCarryTests {
    static func scene(_ regions: String) -> String { #"{"size": [400, 400], "regions": ["# + regions + "]}" }
    /// The same regions after a region put first.
    static func withNewFirst(_ regions: String) -> String {
        scene(#"{"id": "x", "frame": [390, 390, 10, 10]}, "# + regions)
    }

    func gestures(_ h: DispatchHarness) -> [String] {
        h.events.compactMap { event in
            guard case .gesture(let region, let g) = event else { return nil }
            return "\(g.name) \(g.event.rawValue) \(region) @\(g.time.microseconds / 1000)"
        }
    }

    static let favourite = #"""
        {"id": "fav", "frame": [0, 0, 200, 200], "gestures": ["tap", {"type": "tap", "name": "double-tap", "taps": 2}]}
        """#

    /// Up at 100: the single tap is held for the double tap's window, which closes at 400 whatever the scene did.
    @Test("a single tap held for a double tap's window fires when it closes, across a scene change")
    func heldSingleTap() {
        let h = DispatchHarness(Self.scene(Self.favourite))
        h.send(.down, 1, 50, 50, at: 0)
        h.send(.up, 1, 50, 50, at: 100)
        h.replace(Self.withNewFirst(Self.favourite), at: 200)
        h.advance(to: 2000)
        #expect(gestures(h) == ["tap ended fav @400"])
    }

    /// The second tap after the change completes the double tap begun before it; the held single tap is dropped.
    @Test("a double tap whose first tap came before a scene change is a double tap only")
    func doubleTapAcross() {
        let h = DispatchHarness(Self.scene(Self.favourite))
        h.send(.down, 1, 50, 50, at: 0)
        h.send(.up, 1, 50, 50, at: 100)
        h.replace(Self.withNewFirst(Self.favourite), at: 200)
        h.send(.down, 2, 52, 50, at: 250)
        h.send(.up, 2, 52, 50, at: 300)
        h.advance(to: 2000)
        #expect(gestures(h) == ["double-tap ended fav @300"])
    }

    static let tapThenDrag = #"""
        {"id": "r", "frame": [0, 0, 400, 400], "gestures": ["tap", "drag"], "sequenced": [["tap", "drag"]]}
        """#

    /// The tap at 50 arms the drag until 350; the scene changes at 100; the drag goes down at 200 and moves 28.
    @Test("a sequence's step armed before a scene change hears the next down in time")
    func armedStepAcross() {
        let h = DispatchHarness(Self.scene(Self.tapThenDrag))
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.up, 1, 100, 100, at: 50)
        h.replace(Self.withNewFirst(Self.tapThenDrag), at: 100)
        h.send(.down, 2, 102, 100, at: 200)
        h.send(.move, 2, 130, 100, at: 260)
        h.send(.up, 2, 130, 100, at: 300)
        #expect(gestures(h) == ["tap ended r @50", "drag began r @260", "drag ended r @300"])
    }

    static let pressThenMove = #"""
        {"id": "r", "frame": [0, 0, 400, 400], "gestures": [
          {"type": "long-press", "name": "press"}, {"type": "drag", "name": "move"}], "sequenced": [["press", "move"]]}
        """#

    /// The press completes at 500 with the finger at (105, 100); after the change at 550 the drag begins 20 on.
    @Test("a drag armed by a long press before a scene change begins from where the press completed")
    func pressThenDragAcross() throws {
        let h = DispatchHarness(Self.scene(Self.pressThenMove))
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.move, 1, 105, 100, at: 300)
        h.advance(to: 500)
        h.replace(Self.withNewFirst(Self.pressThenMove), at: 550)
        h.send(.move, 1, 112, 100, at: 600)
        h.send(.move, 1, 125, 100, at: 700)
        h.send(.up, 1, 125, 100, at: 800)
        #expect(
            gestures(h) == [
                "press pressing r @0", "press began r @500", "press changed r @600", "press changed r @700",
                "move began r @700", "press ended r @800", "move ended r @800",
            ])
        let began = try #require(
            h.events.lazy.compactMap { event -> GestureEvent? in
                if case .gesture(_, let g) = event, g.name == "move", g.event == .began { g } else { nil }
            }.first)
        #expect(began.translation == Point(x: 20, y: 0))
    }

    static let dragAfterPress = #"""
        {"id": "r", "frame": [0, 0, 400, 400], "gestures": [
          {"type": "drag", "minimumDistance": 5, "requireToFail": ["long-press"]}, "long-press"]}
        """#

    /// The drag recognized at 100 (7 units) waits for the press; the scene changes at 150; at 300 the finger is 20
    /// away, the press fails and the held drag begins with the translation it was recognized with.
    @Test("a drag held for a long press across a scene change begins when the press fails")
    func heldBeginAcross() throws {
        let h = DispatchHarness(Self.scene(Self.dragAfterPress))
        h.send(.down, 1, 100, 100, at: 0)
        h.send(.move, 1, 107, 100, at: 100)
        h.replace(Self.withNewFirst(Self.dragAfterPress), at: 150)
        h.send(.move, 1, 120, 100, at: 300)
        h.send(.up, 1, 120, 100, at: 400)
        #expect(
            gestures(h) == [
                "long-press pressing r @0", "long-press failed r @300", "drag began r @300", "drag ended r @400",
            ])
    }

    static let listWithRow = #"""
        {"id": "list", "frame": [100, 100, 200, 200], "intercept": {"slop": 10},
         "children": [{"id": "row", "frame": [0, 0, 200, 100], "gestures": ["long-press"]}]}
        """#

    /// A press held on the row when the scene changes; the list takes the finger past its slop: the row's press
    /// fails (it had reported `pressing`), and the row's next touch is a long press afresh.
    @Test("a container takes a held press's finger after a scene change; the next press on the row is recognized")
    func interceptAfterChange() {
        let h = DispatchHarness(Self.scene(Self.listWithRow))
        h.send(.down, 1, 200, 150, at: 0)
        h.replace(Self.withNewFirst(Self.listWithRow), at: 100)
        h.send(.move, 1, 200, 170, at: 200)
        h.send(.up, 1, 200, 170, at: 300)
        #expect(gestures(h) == ["long-press pressing row @0", "long-press failed row @200"])
        h.clear()
        h.send(.down, 2, 200, 150, at: 1000)
        h.advance(to: 1600)
        h.send(.up, 2, 200, 150, at: 1700)
        #expect(
            gestures(h) == [
                "long-press pressing row @1000", "long-press began row @1500", "long-press ended row @1700",
            ])
    }

    static let cardWithButton = #"""
        {"id": "card", "frame": [0, 0, 400, 400], "gestures": ["long-press"],
         "children": [{"id": "button", "frame": [100, 100, 100, 100]}]}
        """#

    /// The button's finger feeds the card's press (bubbling); the button goes away: the finger is cancelled and the
    /// card's press, carried into the new scene, fails and lets go of it. The card's next touch is a press afresh.
    @Test("a carried ancestor's press whose finger's region went away fails, and recognizes the next touch")
    func bubbledFingerCancelled() {
        let h = DispatchHarness(Self.scene(Self.cardWithButton))
        h.send(.down, 1, 150, 150, at: 0)
        h.replace(
            Self.withNewFirst(#"{"id": "card", "frame": [0, 0, 400, 400], "gestures": ["long-press"]}"#), at: 100)
        h.advance(to: 1000)
        #expect(h.log.prefix(3) == ["down 1 button", "long-press pressing card", "cancel 1 button"])
        #expect(h.log.dropFirst(3).map { $0.hasPrefix("long-press failed ") } == [true])
        h.clear()
        h.send(.down, 2, 150, 150, at: 1000)
        h.advance(to: 1600)
        h.send(.up, 2, 150, 150, at: 1700)
        #expect(
            gestures(h) == [
                "long-press pressing card @1000", "long-press began card @1500", "long-press ended card @1700",
            ])
    }
}
