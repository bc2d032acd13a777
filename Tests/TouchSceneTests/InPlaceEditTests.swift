import Testing
import TouchCore
import TouchScene
import TouchTestKit

/// An edit put in force in place must leave exactly the index that building it again from the edited scene gives:
/// the from-scratch build is the independent answer.
@Suite("Scene index: a region replaced in place")
struct InPlaceEditTests {
    static let sceneJSON = """
        {"size": [400, 300], "regions": [
          {"id": "back", "frame": [0, 0, 400, 300], "z": -1},
          {"id": "list", "frame": [20, 20, 200, 200], "clipsChildren": true, "z": 1,
           "scroll": {"contentSize": [200, 600], "offset": [0, 40]},
           "children": [
             {"id": "row1", "frame": [0, 0, 200, 50], "children": [{"id": "badge", "frame": [150, 10, 30, 30]}]},
             {"id": "row2", "frame": [0, 50, 200, 50]},
             {"id": "row3", "frame": [0, 100, 200, 50], "z": 2}]},
          {"id": "panel", "frame": [240, 20, 140, 260], "children": [
             {"id": "button", "frame": [10, 10, 100, 40], "touchable": {"inset": 5}},
             {"id": "knob", "frame": [10, 200, 40, 40], "shape": "circle"}]},
          {"id": "overlay", "frame": [100, 100, 200, 100], "alpha": 0.5}
        ]}
        """

    /// Each edit as a region's fields to set (the fields `update-region` may change in place).
    static let edits: [(id: String, change: @Sendable (inout Region) -> Void)] = [
        ("row1", { $0.frame = Rect(x: 5, y: 60, width: 190, height: 40) }),
        ("list", { $0.frame = Rect(x: 40, y: 0, width: 180, height: 250) }),
        ("list", { $0.scroll?.offset = Point(x: 0, y: 120) }),
        ("list", { $0.clipsChildren = false }),
        ("row3", { $0.z = -5 }),
        ("back", { $0.z = 10 }),
        ("panel", { $0.hidden = true }),
        ("panel", { $0.enabled = false }),
        ("overlay", { $0.alpha = 0.01 }),
        ("button", { $0.touchableArea = .insets(EdgeInsets(top: -20, left: -20, bottom: -20, right: -20)) }),
        ("knob", { $0.z = 3 }),
    ]

    @Test("after each edit, every node and every hit are those of the index built from the edited scene")
    func sameAsRebuilt() throws {
        let scene = try SceneLoader.parse(Self.sceneJSON, file: "t.json")
        for edit in Self.edits {
            var index = SceneIndex(scene: scene)
            let node = try #require(index.index(of: edit.id))
            var edited = index.scene
            var region: Region?
            SceneEditor.modify(&edited.regions, at: SceneEditor.path(of: node, in: index)[...]) {
                edit.change(&$0)
                region = $0
            }
            let replacement = try #require(region)
            index.replaceRegion(node, with: replacement)
            let rebuilt = SceneIndex(scene: edited)
            #expect(index.scene == edited, "\(edit.id)")
            for (mine, theirs) in zip(index.nodes, rebuilt.nodes) {
                #expect(mine.id == theirs.id)
                #expect(mine.frame == theirs.frame, "\(edit.id): \(mine.id)")
                #expect(mine.touchBounds == theirs.touchBounds, "\(edit.id): \(mine.id)")
                #expect(mine.eligible == theirs.eligible, "\(edit.id): \(mine.id)")
                #expect(mine.takesTouches == theirs.takesTouches, "\(edit.id): \(mine.id)")
                #expect(mine.clippingAncestors == theirs.clippingAncestors, "\(edit.id): \(mine.id)")
                #expect(mine.rank == theirs.rank, "\(edit.id): \(mine.id)")
            }
            var random = SeededRandom(seed: 11)
            for _ in 0..<2000 {
                let point = Point(x: random.double(in: -10...410), y: random.double(in: -10...310))
                #expect(index.hitTest(point) == rebuilt.hitTest(point), "\(edit.id) at \(point)")
                #expect(index.hitTest(point) == index.linearHitTest(point), "\(edit.id) at \(point)")
            }
        }
    }

    @Test("ten thousand overlapping full-screen regions: hits as the plain scan finds them, without a cell each")
    func overlappingRegions() {
        // Each a little smaller than the last, so the topmost that contains a point depends on the point.
        let regions = (0..<10_000).map { number in
            let inset = Double(number) * 0.05
            return Region(
                id: "r\(number)", frame: Rect(x: inset, y: inset, width: 1000 - 2 * inset, height: 1000 - 2 * inset))
        }
        let index = SceneIndex(scene: Scene(width: 1000, height: 1000, regions: regions))
        #expect(index.gridEntryCount <= 8 * regions.count + 10_000)
        var random = SeededRandom(seed: 3)
        for _ in 0..<500 {
            let point = Point(x: random.double(in: 0...1000), y: random.double(in: 0...1000))
            #expect(index.hitTest(point) == index.linearHitTest(point), "at \(point)")
        }
        // Hand-computed: the last region (inset 499.95) is on top and holds the centre.
        #expect(index.hitTest(Point(x: 500, y: 500)).map { index.nodes[$0].id } == "r9999")
        // At (10, 10) only regions with inset ≤ 10 (r0…r200) contain the point; the latest of them is on top.
        #expect(index.hitTest(Point(x: 10, y: 10)).map { index.nodes[$0].id } == "r200")
    }

}

/// The dispatcher's in-place edit against its full scene change, on the same fingers: the full change is the
/// behaviour the protocol documents, so every event after the edit must be the same.
@Suite("Dispatcher: a region replaced in place")
struct DispatcherInPlaceEditTests {
    static let scene = #"""
        {"size": [400, 800], "regions": [
          {"id": "list", "frame": [100, 100, 200, 200], "scroll": {"contentSize": [200, 600]},
           "children": [{"id": "top", "frame": [0, 0, 200, 100], "gestures": [{"type": "tap", "name": "open"}]},
                        {"id": "item", "frame": [0, 300, 200, 100]}]},
          {"id": "card", "frame": [0, 500, 150, 150], "draggable": true,
           "gestures": [{"type": "long-press", "name": "hold"}]},
          {"id": "pad", "frame": [200, 500, 150, 150], "gestures": [{"type": "drag", "name": "slide"}]}]}
        """#

    /// A finger scrolling the list, one dragging the card, one panning the pad, then `edit` on region `id`, then
    /// all of them moving on and lifting.
    func run(_ id: String, _ edit: (inout Region) -> Void, inPlace: Bool) throws -> [DispatchEvent] {
        let h = DispatchHarness(Self.scene)
        h.send(.down, 1, 200, 250, at: 0)
        h.send(.move, 1, 200, 200, at: 20)
        h.send(.down, 2, 50, 550, at: 30)
        h.send(.move, 2, 80, 580, at: 40)
        h.send(.down, 3, 250, 550, at: 50)
        h.send(.move, 3, 300, 600, at: 60)
        let index = h.dispatcher.index
        let node = try #require(index.index(of: id))
        var edited = index.scene
        var region: Region?
        SceneEditor.modify(&edited.regions, at: SceneEditor.path(of: node, in: index)[...]) {
            edit(&$0)
            region = $0
        }
        h.clear()
        if inPlace {
            let replacement = try #require(region)
            let events = try #require(
                h.dispatcher.replaceRegion(node, with: replacement, at: EventTime(microseconds: 70_000)))
            h.events += events
        } else {
            h.events += h.dispatcher.replaceScene(edited, at: EventTime(microseconds: 70_000))
        }
        h.send(.move, 1, 200, 150, at: 80)
        h.send(.move, 2, 100, 600, at: 90)
        h.send(.move, 3, 320, 620, at: 100)
        h.advance(to: 2000)
        for finger: UInt32 in 1...3 { h.send(.up, finger, 320, 620, at: 2100) }
        h.send(.down, 4, 150, 150, at: 2200)
        h.send(.up, 4, 150, 150, at: 2250)
        h.advance(to: 3000)
        #expect(h.log.count >= 8, "the fingers went on being dispatched")
        return h.events
    }

    @Test("hiding, disabling, moving, restacking and scrolling a region: the same events as the full scene change")
    func sameAsSceneChange() throws {
        let edits: [(String, (inout Region) -> Void)] = [
            ("pad", { $0.hidden = true }),
            ("card", { $0.enabled = false }),
            ("card", { $0.frame = Rect(x: 10, y: 400, width: 150, height: 150) }),
            ("list", { $0.scroll?.offset = Point(x: 0, y: 300) }),
            ("list", { $0.frame = Rect(x: 120, y: 80, width: 200, height: 300) }),
            ("list", { $0.hidden = true }),
            ("top", { $0.z = 4 }),
            ("pad", { $0.alpha = 0.5 }),
        ]
        for (id, edit) in edits {
            let full = try run(id, edit, inPlace: false)
            #expect(try run(id, edit, inPlace: true) == full, "\(id)")
        }
    }

    @Test("an edit of gestures or children is not made in place")
    func refusesStructuralEdits() throws {
        let h = DispatchHarness(Self.scene)
        let node = try #require(h.dispatcher.index.index(of: "list"))
        var region = h.dispatcher.index.scene.regions[0]
        region.children.removeLast()
        #expect(h.dispatcher.replaceRegion(node, with: region, at: .zero) == nil)
        region = h.dispatcher.index.scene.regions[1]
        region.gestures = []
        let card = try #require(h.dispatcher.index.index(of: "card"))
        #expect(h.dispatcher.replaceRegion(card, with: region, at: .zero) == nil)
    }
}
