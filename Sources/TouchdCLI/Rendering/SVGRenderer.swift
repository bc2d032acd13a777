import TouchCore
import TouchGestures
import TouchScene

/// Draws a scene and what happened on it: each region's frame outlined and its touchable area shaded, each
/// finger's path coloured by the region that captured it (grey when none did), a ring at the down, a dot at
/// the up, a cross at a cancel, and a label where each gesture completed. Regions that were dragged also
/// show their final place, dashed. One `<path class="finger">` per finger.
public enum SVGRenderer {
    static let palette = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c564b", "#bcbd22",
    ]

    public static func render(scene: Scene, events: [DispatchEvent]) -> String {
        let index = SceneIndex(scene: scene)
        var colours: [String: String] = [:]
        for (number, node) in index.nodes.enumerated() { colours[node.id] = palette[number % palette.count] }
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(scene.width))\" height=\"\(n(scene.height))\""
        svg += " viewBox=\"0 0 \(n(scene.width)) \(n(scene.height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        svg += "<rect x=\"0\" y=\"0\" width=\"\(n(scene.width))\" height=\"\(n(scene.height))\" fill=\"#ffffff\"/>\n"
        svg += "<g class=\"regions\">\n"
        for nodeIndex in index.order.reversed() {  // bottom first, so the topmost is drawn last
            let node = index.nodes[nodeIndex]
            let colour = colours[node.id]!
            let opacity = node.eligible ? "0.25" : "0.06"
            svg +=
                "<rect class=\"frame\" x=\"\(n(node.frame.x))\" y=\"\(n(node.frame.y))\" width=\"\(n(node.frame.width))\""
            svg += " height=\"\(n(node.frame.height))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1\"/>\n"
            if node.region.wantsTouches {
                svg += shape(
                    node.region.shape, in: node.touchBounds,
                    attributes: "class=\"touchable\" fill=\"\(colour)\" fill-opacity=\"\(opacity)\"")
            }
            svg +=
                "<text x=\"\(n(node.frame.x + 4))\" y=\"\(n(node.frame.y + 14))\" fill=\"\(colour)\">\(escape(node.id))</text>\n"
        }
        svg += "</g>\n"

        var paths: [String: (region: String?, points: [Point], end: TouchPhase?)] = [:]
        var order: [String] = []
        var finalFrames: [String: Rect] = [:]
        var labels: [(Point, String, String)] = []
        for event in events {
            switch event {
            case .touch(let touch):
                let key = "\(touch.device)/\(touch.finger)"
                if touch.phase == .down && paths[key] == nil {
                    paths[key] = (touch.region, [], nil)
                    order.append(key)
                }
                paths[key]?.points.append(touch.location)
                if touch.phase == .up || touch.phase == .cancel { paths[key]?.end = touch.phase }
            case .gesture(let region, let gesture) where gesture.event == .ended:
                labels.append((gesture.location, gesture.name + detail(gesture), colours[region] ?? "#000000"))
            case .regionMoved(let region, let frame, _):
                finalFrames[region] = frame
            default:
                break
            }
        }
        for (region, frame) in finalFrames.sorted(by: { $0.key < $1.key }) {
            guard let node = index[region] else { continue }
            let offset = node.frame.origin - node.region.frame.origin  // the parent's origin in scene coordinates
            let moved = frame.offsetBy(offset)
            svg +=
                "<rect class=\"moved\" x=\"\(n(moved.x))\" y=\"\(n(moved.y))\" width=\"\(n(moved.width))\" height=\"\(n(moved.height))\""
            svg += " fill=\"none\" stroke=\"\(colours[region]!)\" stroke-dasharray=\"6 4\"/>\n"
        }
        svg += "<g class=\"fingers\" fill=\"none\" stroke-width=\"2\">\n"
        for key in order {
            guard let path = paths[key], let first = path.points.first else { continue }
            let colour = path.region.flatMap { colours[$0] } ?? "#7f7f7f"
            var d = "M\(n(first.x)) \(n(first.y))"
            for point in path.points.dropFirst() { d += " L\(n(point.x)) \(n(point.y))" }
            svg +=
                "<path class=\"finger\" data-finger=\"\(escape(key))\" data-region=\"\(escape(path.region ?? ""))\" d=\"\(d)\" stroke=\"\(colour)\"/>\n"
            svg += "<circle cx=\"\(n(first.x))\" cy=\"\(n(first.y))\" r=\"6\" stroke=\"\(colour)\"/>\n"
            let last = path.points.last!
            switch path.end {
            case .up?:
                svg += "<circle cx=\"\(n(last.x))\" cy=\"\(n(last.y))\" r=\"3\" fill=\"\(colour)\" stroke=\"none\"/>\n"
            case .cancel?:
                svg +=
                    "<path d=\"M\(n(last.x - 5)) \(n(last.y - 5)) L\(n(last.x + 5)) \(n(last.y + 5)) M\(n(last.x - 5)) \(n(last.y + 5)) L\(n(last.x + 5)) \(n(last.y - 5))\" stroke=\"\(colour)\"/>\n"
            default:
                break
            }
        }
        svg += "</g>\n<g class=\"gestures\">\n"
        for (point, text, colour) in labels {
            svg += "<text x=\"\(n(point.x + 8))\" y=\"\(n(point.y - 8))\" fill=\"\(colour)\">\(escape(text))</text>\n"
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    private static func detail(_ gesture: GestureEvent) -> String {
        switch gesture.kind {
        case .tap: gesture.taps > 1 ? " ×\(gesture.taps)" : ""
        case .pinch: " " + TextFormatter.fixed(gesture.scale) + "×"
        case .rotate: " " + TextFormatter.fixed(gesture.rotation) + "°"
        case .swipe: " " + (gesture.direction?.rawValue ?? "")
        default: ""
        }
    }

    private static func shape(_ shape: Shape, in bounds: Rect, attributes: String) -> String {
        switch shape {
        case .rect:
            return
                "<rect x=\"\(n(bounds.x))\" y=\"\(n(bounds.y))\" width=\"\(n(max(0, bounds.width)))\" height=\"\(n(max(0, bounds.height)))\" \(attributes)/>\n"
        case .roundedRect(let radius):
            return
                "<rect x=\"\(n(bounds.x))\" y=\"\(n(bounds.y))\" width=\"\(n(max(0, bounds.width)))\" height=\"\(n(max(0, bounds.height)))\" rx=\"\(n(radius))\" \(attributes)/>\n"
        case .ellipse:
            return
                "<ellipse cx=\"\(n(bounds.center.x))\" cy=\"\(n(bounds.center.y))\" rx=\"\(n(max(0, bounds.width / 2)))\" ry=\"\(n(max(0, bounds.height / 2)))\" \(attributes)/>\n"
        case .polygon(let points):
            let list = points.map { "\(n(bounds.x + $0.x)),\(n(bounds.y + $0.y))" }.joined(separator: " ")
            return "<polygon points=\"\(list)\" \(attributes)/>\n"
        }
    }

    /// Numbers with at most two decimals, deterministic.
    private static func n(_ value: Double) -> String {
        let text = TextFormatter.fixed(value)
        if text.hasSuffix(".00") { return String(text.dropLast(3)) }
        if text.hasSuffix("0") { return String(text.dropLast()) }
        return text
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
