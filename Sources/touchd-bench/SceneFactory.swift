import TouchCore
import TouchGestures
import TouchScene
import TouchTestKit

/// Deterministic random scenes for the hit-test and pipeline benchmarks.
struct SceneFactory {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    mutating func double(_ range: ClosedRange<Double>) -> Double { random.double(in: range) }

    /// `count` regions over width × height: groups of a parent with up to three nested levels below it.
    mutating func scene(count: Int, width: Double, height: Double, gestures: Bool = false) -> Scene {
        var made = 0
        var regions: [Region] = []
        func region(depth: Int, parentSize: (Double, Double)) -> Region {
            made += 1
            let w = depth == 0 ? double(20...160) : parentSize.0 * double(0.3...0.7)
            let h = depth == 0 ? double(20...160) : parentSize.1 * double(0.3...0.7)
            let x = depth == 0 ? double(0...(width - w)) : double(0...(parentSize.0 - w))
            let y = depth == 0 ? double(0...(height - h)) : double(0...(parentSize.1 - h))
            var r = Region(id: "r\(made)", frame: Rect(x: x, y: y, width: w, height: h))
            r.z = Double(next() % 3)
            r.shape = next() % 4 == 0 ? .ellipse : .rect
            if gestures { r.gestures = [GestureSpec(.tap), GestureSpec(.drag)] }
            if depth < 3 && made < count && next() % 2 == 0 {
                r.children.append(region(depth: depth + 1, parentSize: (w, h)))
            }
            return r
        }
        while made < count { regions.append(region(depth: 0, parentSize: (width, height))) }
        return Scene(width: width, height: height, regions: regions)
    }
}
