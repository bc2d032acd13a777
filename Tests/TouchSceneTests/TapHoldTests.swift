import Testing
import TouchCore
import TouchGestures
import TouchScene

/// Issue 14 part 3: a single tap beside a double tap fires for every hold up to its `durationMs`.
@Suite("Tap hold beside a double tap")
struct TapHoldTests {
    static let scene = #"""
        {"size": [400, 400], "regions": [{"id": "fav", "frame": [0, 0, 200, 200],
          "gestures": ["tap", {"type": "tap", "name": "double-tap", "taps": 2}]}]}
        """#

    /// Down at 0, up at `hold`: the double tap's window closes 300 ms after the up, and the single fires then.
    @Test(
        "the single tap fires 300 ms after the up for every hold from 0 to 500 ms",
        arguments: [
            0, 1, 50, 100, 199, 200, 201, 250, 300, 400, 450, 499, 500,
        ] as [Int64])
    func singleFiresForEveryHold(hold: Int64) {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 50, 50, at: 0)
        h.send(.up, 1, 50, 50, at: hold)
        h.advance(to: 10_000)
        let gestures = h.events.compactMap { event -> String? in
            guard case .gesture(_, let g) = event else { return nil }
            return "\(g.name) \(g.event.rawValue) @\(g.time.microseconds / 1000)"
        }
        #expect(gestures == ["tap ended @\(hold + 300)"])
    }

    @Test("a hold past durationMs is no tap")
    func holdPastTheLimit() {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 50, 50, at: 0)
        h.send(.up, 1, 50, 50, at: 501)
        h.advance(to: 10_000)
        #expect(h.log == ["down 1 fav", "up 1 fav"])
    }
}

@Suite("Tap hold beside a double and a triple tap")
struct TapHoldTripleTests {
    static let scene = #"""
        {"size": [400, 400], "regions": [{"id": "fav", "frame": [0, 0, 200, 200],
          "gestures": ["tap", {"type": "tap", "name": "double-tap", "taps": 2},
                       {"type": "tap", "name": "triple-tap", "taps": 3}]}]}
        """#

    /// Both longer taps keep the single waiting until their 300 ms window after the up has passed.
    @Test(
        "the single tap fires 300 ms after the up for holds of 200, 350 and 500 ms",
        arguments: [200, 350, 500] as [Int64])
    func singleFiresBesideTriple(hold: Int64) {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 50, 50, at: 0)
        h.send(.up, 1, 50, 50, at: hold)
        h.advance(to: 10_000)
        #expect(h.log == ["down 1 fav", "up 1 fav", "tap ended fav"])
        if case .gesture(_, let g) = h.events.last { #expect(g.time.microseconds == (hold + 300) * 1000) }
    }

    /// Two taps, the first held 500 ms: the double fires at the second up and the single never does.
    @Test("a double tap whose first tap is held 500 ms fires")
    func doubleWithLongFirstTap() {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 50, 50, at: 0)
        h.send(.up, 1, 50, 50, at: 500)
        h.send(.down, 2, 52, 50, at: 700)
        h.send(.up, 2, 52, 50, at: 760)
        h.advance(to: 10_000)
        #expect(h.log == ["down 1 fav", "up 1 fav", "down 2 fav", "up 2 fav", "double-tap ended fav"])
    }
}
