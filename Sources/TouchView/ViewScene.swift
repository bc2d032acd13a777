import TouchCore
import TouchScene

/// The scene as `touchctl view` draws it: the daemon's scene flattened (TouchScene's `SceneIndex`, the model the
/// hit test and `touchd replay --svg` use), and a colour slot for each region.
public struct ViewScene: Sendable {
    public private(set) var scene: Scene
    public private(set) var index: SceneIndex
    /// Region id → palette slot, in the index's node order (as `touchd replay --svg` colours them).
    public private(set) var colourSlots: [String: Int] = [:]

    public init(_ scene: Scene) {
        self.scene = scene
        index = SceneIndex(scene: scene)
        for (number, node) in index.nodes.enumerated() { colourSlots[node.id] = number }
    }

    public var width: Double { scene.width }
    public var height: Double { scene.height }

    /// A region followed a drag: `frame` is in its parent's coordinates (docs/protocol.md, `region-moved`).
    /// - Returns: false when no region has that id.
    public mutating func move(region id: String, to frame: Rect) -> Bool {
        guard Self.move(id, to: frame, in: &scene.regions) else { return false }
        index = SceneIndex(scene: scene)
        return true
    }

    private static func move(_ id: String, to frame: Rect, in regions: inout [Region]) -> Bool {
        for position in regions.indices {
            if regions[position].id == id {
                regions[position].frame = frame
                return true
            }
            if move(id, to: frame, in: &regions[position].children) { return true }
        }
        return false
    }
}
