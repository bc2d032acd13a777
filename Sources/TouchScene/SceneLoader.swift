import TouchCore
import TouchGestures
import TouchJSON

/// The ids a region being read may not take: those read so far, with where each was, and for an edit those of
/// the scene outside what the edit replaces.
public struct RegionIDs {
    public var read: [String: String]
    /// Where an id of the scene already in force is, nil when the id is free.
    var standing: (String) -> String?
    var standingCount: Int

    public init(
        read: [String: String] = [:], standing: @escaping (String) -> String? = { _ in nil }, standingCount: Int = 0
    ) {
        self.read = read
        self.standing = standing
        self.standingCount = standingCount
    }

    func place(of id: String) -> String? { read[id] ?? standing(id) }

    var count: Int { read.count + standingCount }
}

/// Reads and validates a scene (docs/scene.md). A scene is accepted whole or refused whole: the first problem is
/// thrown, naming file, line, JSON path and what is wrong, and nothing of a refused scene is used.
public enum SceneLoader {
    public static let supportedVersion = 1
    /// Regions in a scene, children included. An edit checks only the region it names, but putting it in force
    /// rebuilds the hit-test index on the event loop (docs/scene.md gives the measured cost): the bound keeps a
    /// permitted client's edits from stalling the touches for longer than that.
    public static let maximumRegions = 10_000
    /// Levels of regions inside regions. Edits add regions under others one request at a time, so without it a
    /// scene could grow deeper than the JSON parser reads back (256 levels) and than a recursive walk's stack.
    public static let maximumDepth = 32
    /// Gestures on one region, and references in one gesture's `requireToFail`. A tap waits for every tap of more
    /// taps on its region, so a region's waits grow with the square of its gestures, and each lift weighs them: at
    /// 256 mixed taps a touch costs about 1 ms in replay, at 1,000 about 16 ms, at 2,000 about 80 ms
    /// (docs/performance.md, "Gestures on one region").
    public static let maximumGesturesPerRegion = 256

    public static func parse(_ bytes: [UInt8], file: String) throws(SceneError) -> Scene {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw SceneError(
                file: file, line: error.line, path: "",
                message: "JSON syntax: \(syntaxMessage(error, in: bytes)) (column \(error.column))")
        }
        do {
            return try decodeScene(document)
        } catch {
            throw SceneError(file: file, error)
        }
    }

    public static func parse(_ text: String, file: String) throws(SceneError) -> Scene {
        try parse(Array(text.utf8), file: file)
    }

    /// Decodes a scene from an already parsed JSON value (the socket protocol carries scenes inline).
    public static func decodeScene(_ document: JSONValue) throws(JSONFieldError) -> Scene {
        var reader = try JSONObjectReader(document, path: "")
        if let version = try reader.integer("version", in: 1...1_000_000), version != supportedVersion {
            throw reader.error(
                "version", "scene version \(version) is not supported; this touchd reads version \(supportedVersion)")
        }
        guard let sizeNode = reader.raw("size") else { throw reader.error(nil, "missing required key 'size'") }
        guard let size = sizeNode.numbers, size.count == 2, size[0] > 0, size[1] > 0, size.allSatisfy(\.isFinite) else {
            throw JSONFieldError(line: sizeNode.line, path: "size", message: "expected [width, height], both positive")
        }
        var ids = RegionIDs()
        let regionItems = try reader.array("regions") ?? []
        let regions = try decodeRegions(regionItems, path: "regions", ids: &ids)
        try checkRelations(regions, regionItems, path: "regions", in: GestureDirectory(regions))
        try reader.rejectUnknownKeys()
        return Scene(width: size[0], height: size[1], regions: regions)
    }

    static func decodeRegions(_ items: [JSONValue], path: String, ids: inout RegionIDs, depth: Int = 0)
        throws(JSONFieldError) -> [Region]
    {
        var regions: [Region] = []
        for (index, item) in items.enumerated() {
            regions.append(try decodeRegion(item, path: "\(path)[\(index)]", ids: &ids, depth: depth))
        }
        return regions
    }

    /// One region; `ids` maps every id seen so far to its path, for the duplicate check.
    public static func decodeRegion(_ value: JSONValue, path: String, ids: inout [String: String])
        throws(JSONFieldError) -> Region
    {
        var registry = RegionIDs(read: ids)
        defer { ids = registry.read }
        return try decodeRegion(value, path: path, ids: &registry)
    }

    /// One region, its id and its children's checked against `ids`; `depth`: how many regions it is inside.
    public static func decodeRegion(_ value: JSONValue, path: String, ids: inout RegionIDs, depth: Int = 0)
        throws(JSONFieldError) -> Region
    {
        var reader = try JSONObjectReader(value, path: path)
        guard depth < maximumDepth else {
            throw reader.error(nil, "a region inside \(depth) others: touchd's limit is \(maximumDepth) levels")
        }
        let id = try reader.requiredString("id")
        guard !id.isEmpty else { throw reader.error("id", "must not be empty") }
        if let first = ids.place(of: id) { throw reader.error("id", "duplicate id '\(id)' (first at \(first))") }
        guard ids.count < maximumRegions else {
            throw reader.error(nil, "one region more than touchd's limit of \(maximumRegions) in a scene")
        }
        ids.read[id] = path
        guard let frameNode = reader.raw("frame") else { throw reader.error(nil, "missing required key 'frame'") }
        var region = Region(id: id, frame: try rect(frameNode, path: reader.childPath("frame")))
        if let shape = reader.raw("shape") { region.shape = try decodeShape(shape, path: reader.childPath("shape")) }
        if let area = reader.raw("touchable") {
            region.touchableArea = try decodeTouchable(area, path: reader.childPath("touchable"))
            let bounds = region.touchableBounds
            guard bounds.width > 0 && bounds.height > 0 else {
                throw reader.error(
                    "touchable",
                    "leaves nothing touchable: the \(region.frame.width)×\(region.frame.height) frame becomes "
                        + "\(bounds.width)×\(bounds.height)")
            }
        }
        region.z = try reader.number("z") ?? 0
        region.hidden = try reader.bool("hidden") ?? false
        region.enabled = try reader.bool("enabled") ?? true
        if let alpha = try reader.number("alpha") {
            guard (0...1).contains(alpha) else {
                throw reader.error("alpha", "must be between 0 and 1, found \(NumberText.text(alpha))")
            }
            region.alpha = alpha
        }
        region.passthrough = try reader.bool("passthrough") ?? false
        region.clipsChildren = try reader.bool("clipsChildren") ?? true
        region.raw = try reader.bool("raw") ?? true
        region.draggable = try reader.bool("draggable") ?? false
        region.forward = try reader.bool("forward") ?? false
        if let intercept = reader.raw("intercept") {
            region.intercept = try decodeIntercept(intercept, path: reader.childPath("intercept"))
        }
        if let scroll = reader.raw("scroll") {
            region.scroll = try decodeScroll(scroll, frame: region.frame, path: reader.childPath("scroll"))
            // A scroll container takes its descendants' fingers past the slop, as UIScrollView does.
            if region.intercept == nil { region.intercept = InterceptPolicy() }
        }
        var names: Set<String> = []
        for (index, gesture) in (try reader.array("gestures") ?? []).enumerated() {
            guard index < maximumGesturesPerRegion else {
                throw JSONFieldError(
                    line: gesture.line, path: reader.childPath("gestures") + "[\(index)]",
                    message: "one gesture more than touchd's limit of \(maximumGesturesPerRegion) on a region")
            }
            let spec = try decodeGesture(gesture, path: reader.childPath("gestures") + "[\(index)]")
            guard names.insert(spec.name).inserted else {
                throw JSONFieldError(
                    line: gesture.line, path: reader.childPath("gestures") + "[\(index)]",
                    message: "duplicate gesture name '\(spec.name)'; give one a \"name\"")
            }
            region.gestures.append(spec)
        }
        for (index, group) in (try reader.array("simultaneous") ?? []).enumerated() {
            let groupPath = reader.childPath("simultaneous") + "[\(index)]"
            guard case .array(let members, _) = group else {
                throw JSONFieldError(line: group.line, path: groupPath, message: "expected an array of gesture names")
            }
            var list: [String] = []
            for member in members {
                guard case .string(let name, _) = member, names.contains(name) else {
                    throw JSONFieldError(
                        line: member.line, path: groupPath,
                        message:
                            "'\(Self.describe(member))' names no gesture of this region (has: \(names.sorted().joined(separator: ", ")))"
                    )
                }
                list.append(name)
            }
            region.simultaneous.append(list)
        }
        region.sequenced = try decodeSequences(&reader, names: names)
        region.children = try decodeRegions(
            try reader.array("children") ?? [], path: reader.childPath("children"), ids: &ids, depth: depth + 1)
        try reader.rejectUnknownKeys()
        return region
    }

    static func rect(_ value: JSONValue, path: String) throws(JSONFieldError) -> Rect {
        guard let numbers = value.numbers, numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
            throw JSONFieldError(line: value.line, path: path, message: "expected [x, y, width, height]")
        }
        guard numbers[2] >= 0 && numbers[3] >= 0 else {
            throw JSONFieldError(line: value.line, path: path, message: "width and height must not be negative")
        }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    static func decodeShape(_ value: JSONValue, path: String) throws(JSONFieldError) -> Shape {
        if case .string(let name, _) = value {
            switch name {
            case "rect": return .rect
            case "circle", "ellipse": return .ellipse
            default:
                throw JSONFieldError(
                    line: value.line, path: path,
                    message: "unknown shape '\(name)'; expected rect, rounded-rect, circle, ellipse or polygon")
            }
        }
        var reader = try JSONObjectReader(value, path: path)
        let type = try reader.requiredString("type")
        let shape: Shape
        switch type {
        case "rect": shape = .rect
        case "circle", "ellipse": shape = .ellipse
        case "rounded-rect":
            guard let radius = try reader.number("radius"), radius >= 0 else {
                throw reader.error("radius", "rounded-rect needs a radius >= 0")
            }
            shape = .roundedRect(radius: radius)
        case "polygon":
            guard let points = try reader.array("points") else { throw reader.error(nil, "polygon needs 'points'") }
            var vertices: [Point] = []
            for point in points {
                guard let pair = point.numbers, pair.count == 2 else {
                    throw JSONFieldError(
                        line: point.line, path: reader.childPath("points"), message: "expected [x, y] points")
                }
                vertices.append(Point(x: pair[0], y: pair[1]))
            }
            guard vertices.count >= 3 else {
                throw reader.error("points", "a polygon needs at least 3 points, found \(vertices.count)")
            }
            shape = .polygon(vertices)
        default:
            throw reader.error(
                "type", "unknown shape '\(type)'; expected rect, rounded-rect, circle, ellipse or polygon")
        }
        try reader.rejectUnknownKeys()
        return shape
    }

    static func decodeTouchable(_ value: JSONValue, path: String) throws(JSONFieldError) -> TouchableArea {
        var reader = try JSONObjectReader(value, path: path)
        var area = TouchableArea.frame
        var given = 0
        if let inset = try reader.number("inset") {
            area = .insets(.all(inset))
            given += 1
        }
        if let outset = try reader.number("outset") {
            area = .insets(.all(-outset))
            given += 1
        }
        if let insets = reader.raw("insets") {
            var edges = try JSONObjectReader(insets, path: reader.childPath("insets"))
            area = .insets(
                EdgeInsets(
                    top: try edges.number("top") ?? 0, left: try edges.number("left") ?? 0,
                    bottom: try edges.number("bottom") ?? 0, right: try edges.number("right") ?? 0))
            try edges.rejectUnknownKeys()
            given += 1
        }
        if let rectNode = reader.raw("rect") {
            area = .rect(try rect(rectNode, path: reader.childPath("rect")))
            given += 1
        }
        guard given == 1 else {
            throw reader.error(nil, "give exactly one of inset, outset, insets or rect")
        }
        try reader.rejectUnknownKeys()
        return area
    }

    static func decodeIntercept(_ value: JSONValue, path: String) throws(JSONFieldError) -> InterceptPolicy {
        var reader = try JSONObjectReader(value, path: path)
        var policy = InterceptPolicy()
        if let slop = try reader.number("slop") {
            guard slop >= 0 else { throw reader.error("slop", "must not be negative") }
            policy.slop = slop
        }
        if let delay = try reader.integer("delayMs", in: 0...10_000) { policy.delay = .milliseconds(Int64(delay)) }
        try reader.rejectUnknownKeys()
        return policy
    }

    static func decodeScroll(_ value: JSONValue, frame: Rect, path: String) throws(JSONFieldError) -> ScrollPolicy {
        var reader = try JSONObjectReader(value, path: path)
        guard let sizeNode = reader.raw("contentSize") else {
            throw reader.error(nil, "missing required key 'contentSize'")
        }
        guard let size = sizeNode.numbers, size.count == 2, size.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw JSONFieldError(
                line: sizeNode.line, path: reader.childPath("contentSize"),
                message: "expected [width, height], neither negative")
        }
        var policy = ScrollPolicy(contentWidth: size[0], contentHeight: size[1])
        if let offsetNode = reader.raw("offset") {
            guard let offset = offsetNode.numbers, offset.count == 2, offset.allSatisfy(\.isFinite) else {
                throw JSONFieldError(
                    line: offsetNode.line, path: reader.childPath("offset"), message: "expected [x, y]")
            }
            let point = Point(x: offset[0], y: offset[1])
            guard policy.clamped(point, frame: frame) == point else {
                let limit = policy.clamped(Point(x: .infinity, y: .infinity), frame: frame)
                throw JSONFieldError(
                    line: offsetNode.line, path: reader.childPath("offset"),
                    message: "outside the content: each of x and y must be within 0...\(limit.x) and 0...\(limit.y)")
            }
            policy.offset = point
        }
        try reader.rejectUnknownKeys()
        return policy
    }

    /// A gesture name as written, or the kind of value found where one was expected.
    static func describe(_ value: JSONValue) -> String {
        if case .string(let text, _) = value { return text }
        return value.kindName
    }

    static func unknownGesture(_ name: String, _ value: JSONValue, _ path: String) -> JSONFieldError {
        JSONFieldError(
            line: value.line, path: path,
            message: "unknown gesture '\(name)'; expected "
                + GestureKind.allCases.map(\.rawValue).joined(separator: ", "))
    }
}
