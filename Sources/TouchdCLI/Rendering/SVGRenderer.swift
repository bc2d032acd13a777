import TouchCore
import TouchGestures
import TouchScene

/// Draws a scene and what happened on it: each region's frame outlined and its touchable area shaded, each
/// finger's path coloured by the region that captured it (grey when none did), a ring at the down, a dot at
/// the up, a cross at a cancel, and a label where each gesture completed. Regions that were dragged also
/// show their final place, dashed. One `<path class="finger">` per finger.
public enum SVGRenderer {
    public static func render(scene: Scene, events: [DispatchEvent]) -> String {
        let picture = ReplayPicture(scene: scene, events: events)
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg += open(scene) + ">\n"
        svg += background(scene) + regions(picture, tagged: false)
        for (region, frame) in picture.finalFrames.sorted(by: { $0.key < $1.key }) {
            guard let node = picture.index[region] else { continue }
            let offset = node.frame.origin - node.region.frame.origin  // the parent's origin in scene coordinates
            let moved = frame.offsetBy(offset)
            svg +=
                "<rect class=\"moved\" x=\"\(n(moved.x))\" y=\"\(n(moved.y))\" width=\"\(n(moved.width))\" height=\"\(n(moved.height))\""
            svg += " fill=\"none\" stroke=\"\(picture.colours[region]!)\" stroke-dasharray=\"6 4\"/>\n"
        }
        svg += "<g class=\"fingers\" fill=\"none\" stroke-width=\"2\">\n"
        for path in picture.paths {
            guard let first = path.points.first?.location else { continue }
            let colour = picture.colour(of: path.region)
            var d = "M\(n(first.x)) \(n(first.y))"
            for point in path.points.dropFirst() { d += " L\(n(point.location.x)) \(n(point.location.y))" }
            svg +=
                "<path class=\"finger\" data-finger=\"\(escape(path.key))\" data-region=\"\(escape(path.region ?? ""))\" d=\"\(d)\" stroke=\"\(colour)\"/>\n"
            svg += "<circle cx=\"\(n(first.x))\" cy=\"\(n(first.y))\" r=\"6\" stroke=\"\(colour)\"/>\n"
            let last = path.points.last!.location
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
        for label in picture.labels {
            let colour = picture.colours[label.region] ?? "#000000"
            svg +=
                "<text x=\"\(n(label.location.x + 8))\" y=\"\(n(label.location.y - 8))\" fill=\"\(colour)\">\(escape(label.text))</text>\n"
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    /// The opening `<svg` tag with the scene's size, left open for more attributes.
    static func open(_ scene: Scene) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(scene.width))\" height=\"\(n(scene.height))\""
            + " viewBox=\"0 0 \(n(scene.width)) \(n(scene.height))\" font-family=\"sans-serif\" font-size=\"12\""
    }

    static func background(_ scene: Scene) -> String {
        "<rect x=\"0\" y=\"0\" width=\"\(n(scene.width))\" height=\"\(n(scene.height))\" fill=\"#ffffff\"/>\n"
    }

    /// Each region's frame outlined, its touchable area shaded and its id written, bottom first. `tagged`: the
    /// touchable shapes carry `data-area`, the region's number in the scene index, which the HTML page highlights
    /// them by (an id may hold characters an attribute cannot, which `escape` replaces: the number is exact), and
    /// `data-region`, its id, for a reader of the page.
    static func regions(_ picture: ReplayPicture, tagged: Bool) -> String {
        var svg = "<g class=\"regions\">\n"
        for nodeIndex in picture.index.order.reversed() {  // bottom first, so the topmost is drawn last
            let node = picture.index.nodes[nodeIndex]
            let colour = picture.colours[node.id]!
            let opacity = node.eligible ? "0.25" : "0.06"
            svg +=
                "<rect class=\"frame\" x=\"\(n(node.frame.x))\" y=\"\(n(node.frame.y))\" width=\"\(n(node.frame.width))\""
            svg += " height=\"\(n(node.frame.height))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1\"/>\n"
            if node.region.wantsTouches {
                let tag = tagged ? " data-area=\"\(nodeIndex)\" data-region=\"\(escape(node.id))\"" : ""
                svg += shape(
                    node.region.shape, in: node.touchBounds,
                    attributes: "class=\"touchable\"\(tag) fill=\"\(colour)\" fill-opacity=\"\(opacity)\"")
            }
            svg +=
                "<text x=\"\(n(node.frame.x + 4))\" y=\"\(n(node.frame.y + 14))\" fill=\"\(colour)\">\(escape(node.id))</text>\n"
        }
        return svg + "</g>\n"
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
    static func n(_ value: Double) -> String {
        let text = TextFormatter.fixed(value)
        if text.hasSuffix(".00") { return String(text.dropLast(3)) }
        if text.hasSuffix("0") { return String(text.dropLast()) }
        return text
    }

    /// Text for an attribute or an element. Control characters other than tab, line feed and carriage return become
    /// U+FFFD: XML 1.0 has no way to write them, not even as a character reference, and one would make the whole
    /// file unreadable (a scene may name a region with any JSON string).
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{7F}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
