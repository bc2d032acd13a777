import Testing
import TouchCore
import TouchScene
import TouchTestKit

/// The seed scenario: squares of 100, 200, 300 units at (50,50), (75,75), (100,100), z 1, 2, 3, each touchable
/// only in its centre half. Centre halves: square1 (75..125), square2 (125..225), square3 (175..325).
let seedSceneJSON = """
    {
      "version": 1,
      "size": [500, 500],
      "regions": [
        {"id": "square1", "frame": [50, 50, 100, 100], "z": 1, "touchable": {"rect": [25, 25, 50, 50]}, "draggable": true},
        {"id": "square2", "frame": [75, 75, 200, 200], "z": 2, "touchable": {"rect": [50, 50, 100, 100]}, "draggable": true},
        {"id": "square3", "frame": [100, 100, 300, 300], "z": 3, "touchable": {"rect": [75, 75, 150, 150]}, "draggable": true}
      ]
    }
    """

@Suite("Hit testing")
struct HitTestTests {
    let seed = SceneIndex(scene: try! SceneLoader.parse(seedSceneJSON, file: "seed.json"))

    func hit(_ index: SceneIndex, _ x: Double, _ y: Double) -> String? {
        let grid = index.hitTest(Point(x: x, y: y)).map { index.nodes[$0].id }
        let linear = index.linearHitTest(Point(x: x, y: y)).map { index.nodes[$0].id }
        #expect(grid == linear, "grid and linear scan disagree at (\(x), \(y))")
        return grid
    }

    @Test("seed: inside square 3's frame but outside its centre half, inside square 2's centre half → square 2")
    func seedFallThrough() {
        #expect(hit(seed, 150, 150) == "square2")
        #expect(hit(seed, 250, 250) == "square3")
        #expect(hit(seed, 100, 100) == "square1")  // in all three frames, only in square 1's centre half
        #expect(hit(seed, 60, 60) == nil)  // square 1's frame, outside its centre half
        #expect(hit(seed, 174.9, 174.9) == "square2")
        #expect(hit(seed, 175, 175) == "square3")  // edges: left/top inclusive
        #expect(hit(seed, 225, 200) == "square3")  // square 2's right edge is exclusive; square 3 takes it
    }

    func scene(_ regions: String, size: String = "[400, 400]") -> SceneIndex {
        SceneIndex(scene: try! SceneLoader.parse(#"{"size": \#(size), "regions": [\#(regions)]}"#, file: "t.json"))
    }

    @Test("hidden, disabled and transparent regions are skipped, with their subtrees")
    func visibilityFlags() {
        let index = scene(
            """
            {"id": "bottom", "frame": [0, 0, 100, 100]},
            {"id": "hidden", "frame": [0, 0, 100, 100], "hidden": true},
            {"id": "disabled", "frame": [0, 0, 100, 100], "enabled": false},
            {"id": "faint", "frame": [0, 0, 100, 100], "alpha": 0.01},
            {"id": "hiddenParent", "frame": [0, 0, 100, 100], "hidden": true, "children": [
                {"id": "childOfHidden", "frame": [0, 0, 100, 100]}]}
            """)
        #expect(hit(index, 50, 50) == "bottom")
        let visible = scene(
            #"{"id": "bottom", "frame": [0, 0, 100, 100]}, {"id": "dim", "frame": [0, 0, 100, 100], "alpha": 0.02}"#)
        #expect(hit(visible, 50, 50) == "dim")
    }

    @Test("passthrough: the region never takes a touch, its children do")
    func passthrough() {
        let index = scene(
            """
            {"id": "bottom", "frame": [0, 0, 200, 200]},
            {"id": "overlay", "frame": [0, 0, 200, 200], "passthrough": true, "children": [
                {"id": "button", "frame": [10, 10, 50, 50]}]}
            """)
        #expect(hit(index, 20, 20) == "button")
        #expect(hit(index, 100, 100) == "bottom")
    }

    @Test("children outside the parent's area: hit only when the parent does not clip")
    func clipping() {
        let clipped = scene(
            """
            {"id": "parent", "frame": [100, 100, 100, 100], "children": [{"id": "child", "frame": [80, 80, 50, 50]}]}
            """)
        #expect(hit(clipped, 190, 190) == "child")  // child at (180..230), inside the parent
        #expect(hit(clipped, 210, 210) == nil)  // child, but outside the parent
        let overflowing = scene(
            """
            {"id": "parent", "frame": [100, 100, 100, 100], "clipsChildren": false, "children": [
                {"id": "child", "frame": [80, 80, 50, 50]}]}
            """)
        #expect(hit(overflowing, 210, 210) == "child")
    }

    @Test("deepest hit wins; nested frames are relative to the parent")
    func nesting() {
        let index = scene(
            """
            {"id": "a", "frame": [10, 10, 300, 300], "children": [
                {"id": "b", "frame": [10, 10, 200, 200], "children": [{"id": "c", "frame": [10, 10, 50, 50]}]}]}
            """)
        #expect(hit(index, 35, 35) == "c")  // c is at (30..80) in scene coordinates
        #expect(hit(index, 100, 100) == "b")
        #expect(hit(index, 250, 250) == "a")
        #expect(index["c"]?.frame == Rect(x: 30, y: 30, width: 50, height: 50))
    }

    @Test("circle edge, rounded corner, polygon")
    func shapes() {
        let index = scene(
            """
            {"id": "circle", "frame": [0, 0, 100, 100], "shape": "circle"},
            {"id": "rounded", "frame": [200, 0, 100, 100], "shape": {"type": "rounded-rect", "radius": 20}},
            {"id": "triangle", "frame": [0, 200, 100, 100], "shape": {"type": "polygon", "points": [[0, 0], [100, 0], [0, 100]]}}
            """)
        // Circle of radius 50 around (50,50): (50 + 35, 50 + 35) is 49.5 away; (50 + 36, 50 + 36) is 50.9.
        #expect(hit(index, 85, 85) == "circle")
        #expect(hit(index, 86, 86) == nil)
        #expect(hit(index, 50, 0.5) == "circle")
        // Rounded corner at (200,0), radius 20: corner centre (220,20); (203,3) is 24 away, (206,6) 19.8.
        #expect(hit(index, 203, 3) == nil)
        #expect(hit(index, 206, 6) == "rounded")
        #expect(hit(index, 250, 1) == "rounded")
        // Triangle below the diagonal x + y = 100 (local).
        #expect(hit(index, 40, 240) == "triangle")
        #expect(hit(index, 60, 260) == nil)
    }

    @Test("outset hit area reaches beyond the frame; inset shrinks it")
    func outsetAndInset() {
        let index = scene(
            """
            {"id": "small", "frame": [100, 100, 20, 20], "touchable": {"outset": 15}},
            {"id": "padded", "frame": [200, 200, 100, 100], "touchable": {"insets": {"left": 40}}}
            """)
        #expect(hit(index, 90, 90) == "small")
        #expect(hit(index, 84, 90) == nil)
        #expect(hit(index, 230, 250) == nil)
        #expect(hit(index, 240, 250) == "padded")
    }

    @Test("equal z: the later sibling is on top; higher z beats order")
    func zOrder() {
        let index = scene(
            """
            {"id": "first", "frame": [0, 0, 100, 100]},
            {"id": "second", "frame": [0, 0, 100, 100]},
            {"id": "raised", "frame": [50, 50, 100, 100], "z": 1},
            {"id": "last", "frame": [50, 50, 100, 100]}
            """)
        #expect(hit(index, 10, 10) == "second")
        #expect(hit(index, 60, 60) == "raised")
    }

    @Test("a region that wants no touches (raw false, no gestures) is skipped; one with gestures is not")
    func wantsNoTouches() {
        let index = scene(
            """
            {"id": "bottom", "frame": [0, 0, 100, 100]},
            {"id": "label", "frame": [0, 0, 100, 100], "raw": false},
            {"id": "tapOnly", "frame": [200, 0, 100, 100], "raw": false, "gestures": ["tap"]}
            """)
        #expect(hit(index, 50, 50) == "bottom")
        #expect(hit(index, 250, 50) == "tapOnly")
    }

    /// An independent reference: UIKit's recursive algorithm written directly on the scene tree.
    static func reference(_ regions: [Region], _ point: Point, origin: Point) -> String? {
        let ordered = regions.enumerated().sorted { a, b in
            a.element.z != b.element.z ? a.element.z > b.element.z : a.offset > b.offset
        }.map(\.element)
        for region in ordered {
            guard !region.hidden, region.enabled, region.alpha > 0.01 else { continue }
            let frame = region.frame.offsetBy(origin)
            let inside = region.shape.contains(point, in: region.touchableArea.bounds(for: frame))
            if region.clipsChildren && !inside { continue }
            if let hit = reference(region.children, point, origin: frame.origin) { return hit }
            if inside && region.wantsTouches { return region.id }
        }
        return nil
    }

    @Test(
        "random nested scenes: grid index, linear scan and the recursive reference agree", arguments: [10, 100, 1000])
    func randomScenes(count: Int) {
        var random = SeededRandom(seed: UInt64(count))
        var made = 0
        func makeRegion(depth: Int) -> Region {
            made += 1
            let w = random.double(in: 5...120)
            let h = random.double(in: 5...120)
            var region = Region(
                id: "r\(made)",
                frame: Rect(x: random.double(in: -20...900), y: random.double(in: -20...900), width: w, height: h))
            if depth > 0 {
                region.frame = Rect(
                    x: random.double(in: -10...60), y: random.double(in: -10...60), width: w / 2, height: h / 2)
            }
            region.z = Double(random.int(0...2))
            region.hidden = random.int(0...20) == 0
            region.passthrough = random.int(0...10) == 0
            region.clipsChildren = random.int(0...1) == 0
            region.shape = [Shape.rect, .ellipse, .roundedRect(radius: 8)][random.int(0...2)]
            if random.int(0...3) == 0 { region.touchableArea = .insets(.all(random.double(in: -10...10))) }
            if depth < 3 && made < count {
                for _ in 0..<random.int(0...3) where made < count {
                    region.children.append(makeRegion(depth: depth + 1))
                }
            }
            return region
        }
        var regions: [Region] = []
        while made < count { regions.append(makeRegion(depth: 0)) }
        let scene = Scene(width: 1000, height: 1000, regions: regions)
        let index = SceneIndex(scene: scene)
        var hits = 0
        for _ in 0..<2000 {
            let point = Point(x: random.double(in: 0...999.9), y: random.double(in: 0...999.9))
            let expected = Self.reference(regions, point, origin: .zero)
            let byGrid = index.hitTest(point).map { index.nodes[$0].id }
            let byScan = index.linearHitTest(point).map { index.nodes[$0].id }
            #expect(byGrid == expected)
            #expect(byScan == expected)
            if expected != nil { hits += 1 }
        }
        #expect(hits > count / 5)  // the scenes are not empty space
    }
}

@Suite("Hit testing: extreme geometry (fuzzing regressions)")
struct ExtremeGeometryTests {
    @Test("regions and points far outside any sane range are indexed and hit-tested without a trap")
    func hugeCoordinates() throws {
        let scene = try SceneLoader.parse(
            #"{"size": [1280, 800], "regions": [{"id": "far", "frame": [7e103, 330, 400, 320]}, {"id": "wide", "frame": [-1e300, 0, 1e308, 10]}, {"id": "near", "frame": [0, 100, 100, 100]}]}"#,
            file: "extreme.json")
        let index = SceneIndex(scene: scene)
        for point in [
            Point(x: 50, y: 150), Point(x: 5, y: 5), Point(x: 1e200, y: 5), Point(x: -Double.infinity, y: 5),
            Point(x: .nan, y: 1),
        ] {
            #expect(index.hitTest(point) == index.linearHitTest(point))
        }
        #expect(index.hitTest(Point(x: 50, y: 150)).map { index.nodes[$0].id } == "near")
    }
}
