import TouchCore
import TouchGestures
import TouchScene

/// Deterministic random scenes for the hit-test and pipeline benchmarks.
struct SceneFactory {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }

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
