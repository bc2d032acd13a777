import Testing
import TouchCore
import TouchScene

/// docs/scene.md, "Relations": a gesture held by `requireToFail` is "released when those fail, dropped when one of them
/// begins or ends". The button's tap (up at 100) waits for the card's double tap, whose window would close at 400; at
/// 200 a new scene changes the card's double tap (so it is made anew and has heard nothing) and keeps the button's
/// tap. The double tap the tap waited for can no longer succeed: the tap must fire, by 400 at the latest, with no
/// further touch needed.
@Suite("A held tap whose blocker a scene change replaced")
struct HeldTapBlockerReplacedTests {
    static func scene(interval: Int) -> String {
        #"""
        {"size": [400, 400], "regions": [{"id": "card", "frame": [0, 0, 400, 400],
          "gestures": [{"type": "tap", "name": "double-tap", "taps": 2, "tapIntervalMs": \#(interval)}],
          "children": [{"id": "button", "frame": [100, 100, 100, 100],
                        "gestures": [{"type": "tap", "requireToFail": ["card/double-tap"]}]}]}]}
        """#
    }

    @Test("the button's held tap fires although no touch follows the change")
    func firesWithoutAnotherTouch() throws {
        let h = DispatchHarness(Self.scene(interval: 300))
        h.send(.down, 1, 150, 150, at: 0)
        h.send(.up, 1, 150, 150, at: 100)
        h.replace(Self.scene(interval: 250), at: 200)
        h.advance(to: 2000)
        #expect(h.log == ["down 1 button", "up 1 button", "tap ended button"])
        if case .gesture(_, let tap) = try #require(h.events.last) {
            #expect((200_000...400_000).contains(tap.time.microseconds))
        }
    }
}
