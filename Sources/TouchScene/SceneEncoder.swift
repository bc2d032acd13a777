import TouchCore
import TouchGestures
import TouchJSON

/// Writes a scene back as JSON in the format `SceneLoader` reads (fields at their defaults are left out), so a
/// scene read, edited and written reads back the same.
public enum SceneEncoder {
    public static func encode(_ scene: Scene) -> [UInt8] {
        var writer = JSONWriter()
        encode(scene, into: &writer)
        return writer.bytes
    }

    public static func encode(_ scene: Scene, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("version", SceneLoader.supportedVersion)
        writer.beginArray("size")
        writer.element(scene.width, decimals: 4)
        writer.element(scene.height, decimals: 4)
        writer.endArray()
        writer.beginArray("regions")
        for region in scene.regions { encode(region, into: &writer) }
        writer.endArray()
        writer.endObject()
    }

    public static func encode(_ region: Region, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("id", region.id)
        rect("frame", region.frame, into: &writer)
        switch region.shape {
        case .rect: break
        case .ellipse: writer.field("shape", "ellipse")
        case .roundedRect(let radius):
            writer.key("shape")
            writer.beginObject()
            writer.field("type", "rounded-rect")
            writer.field("radius", radius, decimals: 4)
            writer.endObject()
        case .polygon(let points):
            writer.key("shape")
            writer.beginObject()
            writer.field("type", "polygon")
            writer.beginArray("points")
            for point in points {
                writer.beginArray()
                writer.element(point.x, decimals: 4)
                writer.element(point.y, decimals: 4)
                writer.endArray()
            }
            writer.endArray()
            writer.endObject()
        }
        switch region.touchableArea {
        case .frame: break
        case .insets(let insets):
            writer.key("touchable")
            writer.beginObject()
            writer.key("insets")
            writer.beginObject()
            writer.field("top", insets.top, decimals: 4)
            writer.field("left", insets.left, decimals: 4)
            writer.field("bottom", insets.bottom, decimals: 4)
            writer.field("right", insets.right, decimals: 4)
            writer.endObject()
            writer.endObject()
        case .rect(let local):
            writer.key("touchable")
            writer.beginObject()
            rect("rect", local, into: &writer)
            writer.endObject()
        }
        if region.z != 0 { writer.field("z", region.z, decimals: 4) }
        if region.hidden { writer.field("hidden", true) }
        if !region.enabled { writer.field("enabled", false) }
        if region.alpha != 1 { writer.field("alpha", region.alpha, decimals: 4) }
        if region.passthrough { writer.field("passthrough", true) }
        if !region.clipsChildren { writer.field("clipsChildren", false) }
        if !region.raw { writer.field("raw", false) }
        if region.draggable { writer.field("draggable", true) }
        if region.forward { writer.field("forward", true) }
        if let intercept = region.intercept {
            writer.key("intercept")
            writer.beginObject()
            writer.field("slop", intercept.slop, decimals: 4)
            writer.field("delayMs", intercept.delay.microseconds / 1000)
            writer.endObject()
        }
        if let scroll = region.scroll {
            writer.key("scroll")
            writer.beginObject()
            writer.beginArray("contentSize")
            writer.element(scroll.contentWidth, decimals: 4)
            writer.element(scroll.contentHeight, decimals: 4)
            writer.endArray()
            writer.beginArray("offset")
            writer.element(scroll.offset.x, decimals: 4)
            writer.element(scroll.offset.y, decimals: 4)
            writer.endArray()
            writer.endObject()
        }
        if !region.gestures.isEmpty {
            writer.beginArray("gestures")
            for gesture in region.gestures { encode(gesture, into: &writer) }
            writer.endArray()
        }
        if !region.simultaneous.isEmpty {
            writer.beginArray("simultaneous")
            for group in region.simultaneous {
                writer.beginArray()
                for name in group { writer.element(name) }
                writer.endArray()
            }
            writer.endArray()
        }
        if !region.sequenced.isEmpty {
            writer.beginArray("sequenced")
            for chain in region.sequenced {
                writer.beginArray()
                for name in chain { writer.element(name) }
                writer.endArray()
            }
            writer.endArray()
        }
        if !region.children.isEmpty {
            writer.beginArray("children")
            for child in region.children { encode(child, into: &writer) }
            writer.endArray()
        }
        writer.endObject()
    }

    static func encode(_ spec: GestureSpec, into writer: inout JSONWriter) {
        let plain = GestureSpec(spec.kind)
        writer.beginObject()
        writer.field("type", spec.kind.rawValue)
        if spec.name != spec.kind.rawValue { writer.field("name", spec.name) }
        if spec.taps != plain.taps { writer.field("taps", spec.taps) }
        if spec.fingers != plain.fingers { writer.field("fingers", spec.fingers) }
        if spec.kind == .longPress || spec.kind == .longPressDrag {
            if spec.minimumDuration != plain.minimumDuration {
                writer.field("durationMs", spec.minimumDuration.microseconds / 1000)
            }
        } else if spec.maximumDuration != plain.maximumDuration {
            writer.field("durationMs", spec.maximumDuration.microseconds / 1000)
        }
        if spec.allowableMovement != plain.allowableMovement {
            writer.field("allowableMovement", spec.allowableMovement, decimals: 4)
        }
        if spec.minimumDistance != plain.minimumDistance {
            writer.field("minimumDistance", spec.minimumDistance, decimals: 4)
        }
        if spec.tapInterval != plain.tapInterval { writer.field("tapIntervalMs", spec.tapInterval.microseconds / 1000) }
        if spec.directions != plain.directions {
            writer.beginArray("directions")
            for direction in SwipeDirection.allCases where spec.directions.contains(direction) {
                writer.element(direction.rawValue)
            }
            writer.endArray()
        }
        if !spec.requireToFail.isEmpty {
            writer.beginArray("requireToFail")
            for reference in spec.requireToFail { writer.element(reference) }
            writer.endArray()
        }
        if spec.highPriority { writer.field("priority", "high") }
        writer.endObject()
    }

    private static func rect(_ key: StaticString, _ rect: Rect, into writer: inout JSONWriter) {
        writer.beginArray(key)
        for value in [rect.x, rect.y, rect.width, rect.height] { writer.element(value, decimals: 4) }
        writer.endArray()
    }
}

/// Changes to a scene by region, as clients ask for them. Each edit is made on the scene's JSON form and the
/// result is decoded and validated whole, so an edit can never leave a half-valid scene.
public enum SceneEditor {
    public enum EditError: Error, Equatable, Sendable, CustomStringConvertible {
        case notFound(String)
        case invalid(JSONFieldError)
        case forbidden(String)

        public var description: String {
            switch self {
            case .notFound(let id): "no region '\(id)'"
            case .invalid(let error): error.description
            case .forbidden(let message): message
            }
        }
    }

    public static func addRegion(_ region: JSONValue, parent: String?, to scene: Scene) throws(EditError) -> Scene {
        try edit(scene) { (regions: inout [JSONValue]) throws(EditError) in
            if let parent {
                guard
                    try modifyRegion(
                        parent, in: &regions,
                        { members in
                            var children: [JSONValue] = []
                            if let existing = members.first(where: { $0.key == "children" }),
                                case .array(let items, _) = existing.value
                            {
                                children = items
                            }
                            children.append(region)
                            members.removeAll { $0.key == "children" }
                            members.append(("children", .array(children, line: region.line)))
                        })
                else { throw .notFound(parent) }
            } else {
                regions.append(region)
            }
        }
    }

    public static func updateRegion(_ id: String, fields: JSONValue, in scene: Scene) throws(EditError) -> Scene {
        guard case .object(let changes, _) = fields else {
            throw .invalid(
                JSONFieldError(line: fields.line, path: "set", message: "expected an object of region fields"))
        }
        if changes.contains(where: { $0.key == "id" }) {
            throw .forbidden("a region's id cannot change; remove it and add another")
        }
        return try edit(scene) { (regions: inout [JSONValue]) throws(EditError) in
            guard
                try modifyRegion(
                    id, in: &regions,
                    { members in
                        for change in changes {
                            members.removeAll { $0.key == change.key }
                            if case .null = change.value { continue }  // null removes the field (back to its default)
                            members.append(change)
                        }
                    })
            else { throw .notFound(id) }
        }
    }

    public static func removeRegion(_ id: String, from scene: Scene) throws(EditError) -> Scene {
        try edit(scene) { (regions: inout [JSONValue]) throws(EditError) in
            guard removeRegion(id, in: &regions) else { throw .notFound(id) }
        }
    }

    /// Removes, in one edit, every region of `ids` still in the scene (with its children; one inside another
    /// removed is not counted again). Returns the new scene and the ids removed, in the order of `ids`; nil when
    /// none is there. One edit whatever the count: a closing client's thousand transient regions are not a
    /// thousand re-encodings and validations of the whole scene.
    public static func removeRegions(_ ids: [String], from scene: Scene) throws(EditError) -> (
        scene: Scene, removed: [String]
    )? {
        let wanted = Set(ids)
        var found: Set<String> = []
        let edited = try edit(scene) { (regions: inout [JSONValue]) throws(EditError) in
            removeRegions(wanted, in: &regions, found: &found)
        }
        guard !found.isEmpty else { return nil }
        var seen: Set<String> = []
        return (edited, ids.filter { found.contains($0) && seen.insert($0).inserted })
    }

    private static func removeRegions(_ ids: Set<String>, in regions: inout [JSONValue], found: inout Set<String>) {
        regions.removeAll { region in
            guard case .string(let id, _)? = region["id"], ids.contains(id) else { return false }
            found.insert(id)
            return true
        }
        for index in regions.indices {
            guard case .object(var members, let line) = regions[index],
                let childIndex = members.firstIndex(where: { $0.key == "children" }),
                case .array(var children, let childLine) = members[childIndex].value
            else { continue }
            let before = found.count
            removeRegions(ids, in: &children, found: &found)
            guard found.count != before else { continue }
            members[childIndex] = ("children", .array(children, line: childLine))
            regions[index] = .object(members, line: line)
        }
    }

    private static func edit(_ scene: Scene, _ change: (inout [JSONValue]) throws(EditError) -> Void) throws(EditError)
        -> Scene
    {
        guard let document = try? JSONParser.parse(SceneEncoder.encode(scene)),
            case .object(var members, let line) = document,
            let regionsIndex = members.firstIndex(where: { $0.key == "regions" }),
            case .array(var regions, let regionsLine) = members[regionsIndex].value
        else { throw .forbidden("the scene could not be re-read") }
        try change(&regions)
        members[regionsIndex] = ("regions", .array(regions, line: regionsLine))
        do {
            return try SceneLoader.decodeScene(.object(members, line: line))
        } catch {
            throw .invalid(error)
        }
    }

    /// Applies `change` to the members of the region with `id`, wherever it is in the tree.
    private static func modifyRegion(
        _ id: String, in regions: inout [JSONValue], _ change: (inout [(key: String, value: JSONValue)]) -> Void
    ) throws(EditError) -> Bool {
        for index in regions.indices {
            guard case .object(var members, let line) = regions[index] else { continue }
            if case .string(let candidate, _)? = regions[index]["id"], candidate == id {
                change(&members)
                regions[index] = .object(members, line: line)
                return true
            }
            if let childIndex = members.firstIndex(where: { $0.key == "children" }),
                case .array(var children, let childLine) = members[childIndex].value,
                try modifyRegion(id, in: &children, change)
            {
                members[childIndex] = ("children", .array(children, line: childLine))
                regions[index] = .object(members, line: line)
                return true
            }
        }
        return false
    }

    private static func removeRegion(_ id: String, in regions: inout [JSONValue]) -> Bool {
        if let index = regions.firstIndex(where: { if case .string(let c, _)? = $0["id"] { c == id } else { false } }) {
            regions.remove(at: index)
            return true
        }
        for index in regions.indices {
            guard case .object(var members, let line) = regions[index],
                let childIndex = members.firstIndex(where: { $0.key == "children" }),
                case .array(var children, let childLine) = members[childIndex].value,
                removeRegion(id, in: &children)
            else { continue }
            members[childIndex] = ("children", .array(children, line: childLine))
            regions[index] = .object(members, line: line)
            return true
        }
        return false
    }
}
