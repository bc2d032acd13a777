import Testing
import TouchCore
import TouchScene

/// Scroll containers (`scroll`): a 200×200 list at (100, 100) over 200×600 of content, so its offset runs over
/// 0...400 in y and stays 0 in x. "top" fills the first 100 units of content, "item" lies at 300...400.
@Suite("Scroll containers")
struct ScrollContainerTests {
    static let scene = #"""
        {"size": [400, 800], "regions": [
          {"id": "list", "frame": [100, 100, 200, 200], "scroll": {"contentSize": [200, 600]},
           "children": [{"id": "top", "frame": [0, 0, 200, 100]}, {"id": "item", "frame": [0, 300, 200, 100]}]}]}
        """#

    @Test("a finger on the container scrolls it; the children's frames follow for hit tests and events")
    func scrollsAndChildrenFollow() throws {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 200, 250, at: 0)  // below "top", where "item" is not yet: the list itself
        h.send(.move, 1, 200, 100, at: 50)  // 150 up: offset 150
        h.send(.up, 1, 200, 100, at: 60)
        #expect(h.log == ["down 1 list", "scrolled list 0.0 150.0", "move 1 list", "up 1 list"])
        // "item" is now at 100 + 300 - 150 = 250 on screen.
        #expect(h.dispatcher.index["item"]?.frame == Rect(x: 100, y: 250, width: 200, height: 100))
        h.clear()
        h.send(.down, 2, 200, 260, at: 100)
        #expect(h.log == ["down 2 item"])
        #expect(h.touches.first?.local == Point(x: 100, y: 10))
        // "top" scrolled out of view (100 - 150 = -50...50, outside the list, which clips): the list is hit.
        h.send(.down, 3, 200, 120, at: 110)
        #expect(h.touches.last?.region == "list")
        // The scene as it stands holds the offset; the frames in it are still content coordinates.
        let scroll = try #require(h.dispatcher.index.scene.regions[0].scroll)
        #expect(scroll.offset == Point(x: 0, y: 150))
        #expect(h.dispatcher.index.scene.regions[0].children[1].frame == Rect(x: 0, y: 300, width: 200, height: 100))
    }

    @Test("the offset stays within the content: 0...400 in y, 0 in x where the content is no wider")
    func bounds() {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 200, 290, at: 0)
        h.send(.move, 1, 260, -1000, at: 50)
        h.send(.move, 1, 260, -2000, at: 60)  // already at the end: no event
        h.send(.move, 1, 100, 2000, at: 70)
        h.send(.up, 1, 100, 2000, at: 80)
        #expect(
            h.log == [
                "down 1 list", "scrolled list 0.0 400.0", "move 1 list", "move 1 list", "scrolled list 0.0 0.0",
                "move 1 list", "up 1 list",
            ])
    }

    /// A finger on "top" moves 5 (still the child's), then 30: past the slop the list takes it, and scrolls by
    /// the finger's translation from where it went down.
    @Test("a finger taken from a child scrolls the container from where it went down")
    func takenFromChild() {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 200, 150, at: 0)
        h.send(.move, 1, 200, 145, at: 10)
        h.send(.move, 1, 200, 120, at: 20)
        h.send(.move, 1, 200, 100, at: 30)
        #expect(
            h.log == [
                "down 1 top", "move 1 top", "cancel 1 top", "down 1 list", "scrolled list 0.0 30.0", "move 1 list",
                "scrolled list 0.0 50.0", "move 1 list",
            ])
    }

    @Test("a second finger does not scroll while the first does; after the first lifts, it does")
    func oneDriver() {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 150, 290, at: 0)
        h.send(.down, 2, 250, 290, at: 0)
        h.send(.move, 2, 250, 200, at: 10)  // the second finger: no scroll
        h.send(.move, 1, 150, 240, at: 20)  // the first: 50 up
        h.send(.up, 1, 150, 240, at: 30)
        h.send(.move, 2, 250, 150, at: 40)  // a finger that went down before the first lifted does not take over
        #expect(
            h.log == [
                "down 1 list", "down 2 list", "move 2 list", "scrolled list 0.0 50.0", "move 1 list", "up 1 list",
                "move 2 list",
            ])
    }

    @Test("an initial offset places the children; scroll, intercept and the offset survive the JSON form")
    func initialOffsetAndRoundTrip() throws {
        let json = Self.scene.replacingOccurrences(
            of: #""contentSize": [200, 600]}"#, with: #""contentSize": [200, 600], "offset": [0, 300]}"#)
        let h = DispatchHarness(json)
        #expect(h.dispatcher.index["item"]?.frame == Rect(x: 100, y: 100, width: 200, height: 100))
        let scene = h.dispatcher.index.scene
        let again = try SceneLoader.parse(SceneEncoder.encode(scene), file: "encoded.json")
        #expect(again == scene)
        #expect(again.regions[0].intercept != nil)
    }

    @Test(
        "scroll is validated",
        arguments: [
            (#"{"offset": [0, 0]}"#, "regions[0].scroll", "missing required key 'contentSize'"),
            (
                #"{"contentSize": [200, -1]}"#, "regions[0].scroll.contentSize",
                "expected [width, height], neither negative"
            ),
            (
                #"{"contentSize": [200, 600], "offset": [0, 401]}"#, "regions[0].scroll.offset",
                "outside the content: each of x and y must be within 0...0.0 and 0...400.0"
            ),
            (
                #"{"contentSize": [200, 600], "offset": [-1, 0]}"#, "regions[0].scroll.offset",
                "outside the content: each of x and y must be within 0...0.0 and 0...400.0"
            ),
            (#"{"contentSize": [200, 600], "speed": 2}"#, "regions[0].scroll.speed", "unknown key 'speed'"),
        ] as [(String, String, String)])
    func validation(scroll: String, path: String, message: String) throws {
        let json = """
            {"size": [400, 800], "regions": [{"id": "list", "frame": [100, 100, 200, 200],
              "scroll": \(scroll)}]}
            """
        let error = try #require(throws: SceneError.self) { try SceneLoader.parse(json, file: "s.json") }
        #expect(error.line == 2)
        #expect(error.path == path)
        #expect(error.message == message)
    }

    /// The client replaces the scene mid-scroll (its offset back at 0): the finger keeps scrolling, from there.
    @Test("a scene change mid-scroll keeps the finger scrolling from the new scene's offset")
    func sceneChangeMidScroll() {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 200, 290, at: 0)
        h.send(.move, 1, 200, 250, at: 10)
        h.replace(Self.scene, at: 20)
        h.send(.move, 1, 200, 240, at: 30)
        h.send(.up, 1, 200, 240, at: 40)
        #expect(
            h.log == [
                "down 1 list", "scrolled list 0.0 40.0", "move 1 list", "scrolled list 0.0 10.0", "move 1 list",
                "up 1 list",
            ])
    }

    @Test("removing the container mid-scroll cancels the finger and nothing scrolls after")
    func containerRemoved() {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 200, 290, at: 0)
        h.send(.move, 1, 200, 250, at: 10)
        h.replace(#"{"size": [400, 800], "regions": []}"#, at: 20)
        h.send(.move, 1, 200, 200, at: 30)
        h.send(.up, 1, 200, 200, at: 40)
        #expect(h.log == ["down 1 list", "scrolled list 0.0 40.0", "move 1 list", "cancel 1 list"])
    }
}
