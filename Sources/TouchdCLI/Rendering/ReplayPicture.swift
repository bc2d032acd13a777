import TouchCore
import TouchGestures
import TouchScene

/// What a replay through a scene drew, gathered once from its dispatched events for the pictures made of it
/// (`--svg`, `--html`): each finger's path with its times, its region and how it ended; each completed gesture;
/// where dragged regions ended up; and one colour per region.
struct ReplayPicture {
    static let palette = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c564b", "#bcbd22",
    ]
    /// Fingers that hit no region.
    static let neutral = "#7f7f7f"

    struct FingerPath {
        /// "device/finger".
        var key: String
        /// The region that captured it at its first down.
        var region: String?
        var points: [(time: EventTime, location: Point)] = []
        var end: TouchPhase?
    }

    struct GestureLabel {
        var time: EventTime
        var region: String
        var location: Point
        var text: String
    }

    let index: SceneIndex
    /// Region id → colour, in the index's node order.
    private(set) var colours: [String: String] = [:]
    /// In the order of their first down.
    private(set) var paths: [FingerPath] = []
    private(set) var labels: [GestureLabel] = []
    private(set) var finalFrames: [String: Rect] = [:]

    init(scene: Scene, events: [DispatchEvent]) {
        index = SceneIndex(scene: scene)
        for (number, node) in index.nodes.enumerated() { colours[node.id] = Self.palette[number % Self.palette.count] }
        var pathIndex: [String: Int] = [:]
        for event in events {
            switch event {
            case .touch(let touch):
                let key = "\(touch.device)/\(touch.finger)"
                // A finger taken by a scroll container comes down again with the same id: one path still.
                if touch.phase == .down && pathIndex[key] == nil {
                    pathIndex[key] = paths.count
                    paths.append(FingerPath(key: key, region: touch.region))
                }
                guard let position = pathIndex[key] else { continue }
                paths[position].points.append((touch.time, touch.location))
                if touch.phase == .up || touch.phase == .cancel { paths[position].end = touch.phase }
            case .gesture(let region, let gesture) where gesture.event == .ended:
                labels.append(
                    GestureLabel(
                        time: gesture.time, region: region.string, location: gesture.location,
                        text: gesture.name + Self.detail(gesture)))
            case .regionMoved(let region, let frame, _):
                finalFrames[region.string] = frame
            default:
                break
            }
        }
    }

    func colour(of region: String?) -> String { region.flatMap { colours[$0] } ?? Self.neutral }

    private static func detail(_ gesture: GestureEvent) -> String {
        switch gesture.kind {
        case .tap: gesture.taps > 1 ? " ×\(gesture.taps)" : ""
        case .pinch: " " + TextFormatter.fixed(gesture.scale) + "×"
        case .rotate: " " + TextFormatter.fixed(gesture.rotation) + "°"
        case .swipe: " " + (gesture.direction?.rawValue ?? "")
        default: ""
        }
    }
}
