import Testing
import TouchCore
import TouchScene
import TouchTestKit

/// Long random sequences of in-place edits, drags and scrolls on nested scenes with many equal `z`: after each
/// step the index must be exactly the one built from scratch from the scene as it then stands.
@Suite("Scene index: sequences of in-place edits")
struct InPlaceEditSequenceTests {
    static func randomRegions(_ random: inout SeededRandom, depth: Int, count: Int, prefix: String) -> [Region] {
        (0..<count).map { number in
            var region = Region(
                id: "\(prefix)\(number)",
                frame: Rect(
                    x: random.double(in: -20...300), y: random.double(in: -20...300),
                    width: random.double(in: 1...250), height: random.double(in: 1...250)))
            region.z = Double(random.int(0...2))
            if random.int(0...4) == 0 { region.clipsChildren = true }
            if random.int(0...5) == 0 {
                region.scroll = ScrollPolicy(contentWidth: 600, contentHeight: 600)
            }
            if depth < 3, random.int(0...2) > 0 {
                region.children = randomRegions(
                    &random, depth: depth + 1, count: random.int(1...4), prefix: "\(prefix)\(number)-")
            }
            return region
        }
    }

    @Test("every step leaves the index built from scratch", arguments: 0..<40)
    func sequence(seed: UInt64) throws {
        var random = SeededRandom(seed: seed + 100)
        var index = SceneIndex(
            scene: Scene(
                width: 400, height: 400,
                regions: Self.randomRegions(&random, depth: 0, count: random.int(1...6), prefix: "r")))
        for step in 0..<60 {
            let node = random.int(0...(index.nodes.count - 1))
            switch random.int(0...9) {
            case 0:
                index.moveRegion(
                    node, toOrigin: Point(x: random.double(in: -50...350), y: random.double(in: -50...350)))
            case 1:
                if let scroll = index.nodes[node].region.scroll {
                    let offset = scroll.clamped(
                        Point(x: random.double(in: 0...600), y: random.double(in: 0...600)),
                        frame: index.nodes[node].region.frame)
                    index.scroll(node, to: offset)
                }
            default:
                var edited = index.scene
                var region: Region?
                SceneEditor.modify(&edited.regions, at: SceneEditor.path(of: node, in: index)[...]) {
                    switch random.int(0...7) {
                    case 0, 1, 2: $0.z = Double(random.int(0...2))
                    case 3: $0.hidden.toggle()
                    case 4: $0.alpha = random.int(0...1) == 0 ? 0.005 : 1
                    case 5: $0.clipsChildren.toggle()
                    case 6:
                        $0.frame = Rect(
                            x: random.double(in: -20...300), y: random.double(in: -20...300),
                            width: random.double(in: 1...250), height: random.double(in: 1...250))
                    default: $0.enabled.toggle()
                    }
                    region = $0
                }
                index.replaceRegion(node, with: try #require(region))
            }
            let rebuilt = SceneIndex(scene: index.scene)
            for (mine, theirs) in zip(index.nodes, rebuilt.nodes) {
                // Moves and scrolls add offsets to scene frames, a rebuild adds them from the top: the last bit may differ.
                #expect(
                    abs(mine.frame.x - theirs.frame.x) < 1e-9 && abs(mine.frame.y - theirs.frame.y) < 1e-9
                        && mine.frame.width == theirs.frame.width && mine.frame.height == theirs.frame.height,
                    "seed \(seed) step \(step): \(mine.id)")
                #expect(mine.takesTouches == theirs.takesTouches, "seed \(seed) step \(step): \(mine.id)")
                #expect(mine.rank == theirs.rank, "seed \(seed) step \(step): \(mine.id)")
            }
            #expect(index.order == rebuilt.order, "seed \(seed) step \(step)")
            for _ in 0..<100 {
                let point = Point(x: random.double(in: -30...430), y: random.double(in: -30...430))
                #expect(index.hitTest(point) == rebuilt.linearHitTest(point), "seed \(seed) step \(step) at \(point)")
            }
        }
    }

    /// Frames at the ends of the doubles (an outset that overflows to infinity, a far edge that is NaN, zero sizes,
    /// subnormals) among ordinary ones: the grid must answer as the plain scan, inside the scene and out.
    @Test("extreme frames: the grid's hit is the plain scan's", arguments: 0..<20)
    func extremeFrames(seed: UInt64) {
        var random = SeededRandom(seed: seed + 7)
        let values: [Double] = [-1e308, -1e300, -5, 0, .leastNonzeroMagnitude, 0.5, 50, 99.999, 100, 1e300, 1e308]
        let regions = (0..<random.int(1...300)).map { number in
            var region = Region(
                id: "r\(number)",
                frame: Rect(
                    x: values[random.int(0...values.count - 1)], y: values[random.int(0...values.count - 1)],
                    width: abs(values[random.int(0...values.count - 1)]),
                    height: abs(values[random.int(0...values.count - 1)])))
            if random.int(0...2) == 0 {
                region.touchableArea = .insets(.all(-values[random.int(0...values.count - 1)]))
            }
            return region
        }
        let index = SceneIndex(scene: Scene(width: 100, height: 100, regions: regions))
        for _ in 0..<500 {
            let point = Point(
                x: random.int(0...3) == 0 ? values[random.int(0...values.count - 1)] : random.double(in: -1...101),
                y: random.int(0...3) == 0 ? values[random.int(0...values.count - 1)] : random.double(in: -1...101))
            #expect(index.hitTest(point) == index.linearHitTest(point), "seed \(seed) at \(point)")
        }
    }
}
