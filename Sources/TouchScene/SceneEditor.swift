import TouchGestures
import TouchJSON

/// Changes to a scene by region, as clients ask for them. An edit reads and checks only what it names (the region
/// added, or the region updated with its children) against the ids and gestures of the scene in force; every other
/// region stays exactly as it is, never re-read or judged again. The relations between gestures are checked again
/// only by an edit that changes gestures or children. An edit that fails leaves the scene as it was.
public enum SceneEditor {
    public enum EditError: Error, Equatable, Sendable, CustomStringConvertible {
        case notFound(String)
        /// What is wrong in the request's region (`region`: the id it named, nil for one being added).
        case invalid(region: String?, JSONFieldError)
        case forbidden(String)

        public var description: String {
            switch self {
            case .notFound(let id): "no region '\(SceneEditor.clipped(id))'"
            case .invalid(let region, let error):
                (region.map { "region '\(SceneEditor.clipped($0))': " } ?? "")
                    + (error.path.isEmpty ? "" : error.path + ": ") + error.message
            case .forbidden(let message): message
            }
        }
    }

    /// A gesture that waited for one of the removed regions' gestures, and no longer does.
    public struct DroppedRelation: Equatable, Sendable, CustomStringConvertible {
        public var region: String
        public var gesture: String
        public var reference: String

        public var description: String { "\(region)/\(gesture) no longer waits for \(reference)" }
    }

    /// Keys of `update-region`'s `set` that change which gestures wait for which: only these make an update check
    /// the scene's relations again.
    static let relationKeys: Set<String> = ["gestures", "simultaneous", "sequenced", "children"]

    /// Whether an update with these fields keeps the region's gestures, relations and children, so that it can be
    /// put in force in place (`Dispatcher.replaceRegion`).
    public static func mayUpdateInPlace(_ fields: JSONValue) -> Bool {
        guard case .object(let changes, _) = fields else { return false }
        return !changes.contains { relationKeys.contains($0.key) }
    }

    public static func addRegion(_ value: JSONValue, parent: String?, to index: SceneIndex) throws(EditError) -> Scene {
        var scene = index.scene
        var parentPath: [Int] = []
        var highAbove: [String] = []
        var depth = 0
        if let parent {
            guard let node = index.index(of: parent) else { throw .notFound(parent) }
            parentPath = path(of: node, in: index)
            depth = index.nodes[node].depth + 1
            for ancestor in index.chain(from: node) {
                let region = index.nodes[ancestor].region
                highAbove += region.gestures.filter(\.highPriority).map { "\(region.id)/\($0.name)" }
            }
        }
        var ids = RegionIDs(
            standing: { index.index(of: $0) != nil ? "a region of the scene in force" : nil },
            standingCount: index.nodes.count)
        let region: Region
        do throws(JSONFieldError) {
            region = try SceneLoader.decodeRegion(value, path: "region", ids: &ids, depth: depth)
            try SceneLoader.checkRelations(
                [region], nil, path: "", in: SceneLoader.GestureDirectory([region], standing: gestureNames(in: index)),
                highAbove: highAbove)
        } catch {
            throw .invalid(region: nil, error)
        }
        if parent == nil {
            scene.regions.append(region)
        } else {
            modify(&scene.regions, at: parentPath[...]) { $0.children.append(region) }
        }
        return scene
    }

    /// An update of one region, decoded and checked: `region` (with its children) replaces node `node`, at
    /// `path` in the scene's tree.
    public struct RegionUpdate: Sendable {
        public var node: Int
        public var path: [Int]
        public var region: Region
        /// The update names fields that decide which gestures wait for which (`relationKeys`).
        public var changesRelations: Bool
    }

    public static func updateRegion(_ id: String, fields: JSONValue, in index: SceneIndex) throws(EditError) -> Scene {
        let update = try regionUpdate(id, fields: fields, in: index)
        var scene = index.scene
        modify(&scene.regions, at: update.path[...]) { $0 = update.region }
        if update.changesRelations {
            do throws(JSONFieldError) {
                try SceneLoader.checkRelations(scene.regions, nil, path: "", in: .init(scene.regions))
            } catch {
                throw .invalid(region: id, error)
            }
        }
        return scene
    }

    /// The region `id` with `fields` set, read and checked alone: the rest of the scene is not read, so an update
    /// that changes relations (`changesRelations`) must still have the scene's relations checked
    /// (`updateRegion` does).
    public static func regionUpdate(_ id: String, fields: JSONValue, in index: SceneIndex) throws(EditError)
        -> RegionUpdate
    {
        guard case .object(let changes, _) = fields else {
            throw .invalid(
                region: id, JSONFieldError(line: 0, path: "set", message: "expected an object of region fields"))
        }
        if changes.contains(where: { $0.key == "id" }) {
            throw .forbidden("a region's id cannot change; remove it and add another")
        }
        guard let node = index.index(of: id) else { throw .notFound(id) }
        let old = subtree(node, in: index)
        guard case .object(var members, let line)? = try? JSONParser.parse(encoded(old)) else {
            throw .forbidden("region '\(clipped(id))' could not be read again")
        }
        for change in changes {
            members.removeAll { $0.key == change.key }
            if case .null = change.value { continue }  // null removes the field (back to its default)
            members.append(change)
        }
        let replaced = Set(descendants(of: node, in: index))
        var ids = RegionIDs(
            standing: {
                index.index(of: $0).flatMap { replaced.contains($0) ? nil : "a region of the scene in force" }
            },
            standingCount: index.nodes.count - replaced.count)
        do throws(JSONFieldError) {
            let region = try SceneLoader.decodeRegion(
                .object(members, line: line), path: "set", ids: &ids, depth: index.nodes[node].depth)
            return RegionUpdate(
                node: node, path: path(of: node, in: index), region: region,
                changesRelations: changes.contains { relationKeys.contains($0.key) })
        } catch {
            throw .invalid(region: id, error)
        }
    }

    /// Removes a region with its children. Refused while a gesture of another region waits for one of theirs
    /// (`requireToFail`): the request names one region, and must not change what another waits for.
    public static func removeRegion(_ id: String, from index: SceneIndex) throws(EditError) -> Scene {
        guard let node = index.index(of: id) else { throw .notFound(id) }
        let removed = Set(descendants(of: node, in: index).map { index.nodes[$0].id })
        if let first = dependents(on: removed, in: index).first {
            throw .forbidden(
                "region '\(clipped(first.region))' gesture '\(clipped(first.gesture))' waits for "
                    + "'\(clipped(first.reference))' (requireToFail): change that region first")
        }
        var scene = index.scene
        let path = path(of: node, in: index)
        if path.count == 1 {
            scene.regions.remove(at: path[0])
        } else {
            modify(&scene.regions, at: path.dropLast()) { $0.children.remove(at: path[path.count - 1]) }
        }
        return scene
    }

    /// Removes, in one edit, every region of `ids` still in the scene, with its children, and the waits of other
    /// regions' gestures for theirs (a closing client's transient regions go whoever named them). The ids removed
    /// come in the order of `ids`; nil when none is there.
    public static func removeRegions(_ ids: [String], from index: SceneIndex) -> (
        scene: Scene, removed: [String], dropped: [DroppedRelation]
    )? {
        let wanted = Set(ids)
        var seen: Set<String> = []
        // One inside another removed region goes with it, and is not counted again.
        let named = ids.filter { id in
            guard let node = index.index(of: id), seen.insert(id).inserted else { return false }
            return !index.chain(from: node).dropFirst().contains { wanted.contains(index.nodes[$0].id) }
        }
        guard !named.isEmpty else { return nil }
        var gone: Set<String> = []
        for id in named {
            for node in descendants(of: index.index(of: id)!, in: index) { gone.insert(index.nodes[node].id) }
        }
        let dropped = dependents(on: gone, in: index)
        var scene = index.scene
        prune(&scene.regions, removing: gone, dropping: Set(dropped.map { "\($0.region)/\($0.gesture)" }))
        return (scene, named, dropped)
    }

    // MARK: The tree

    /// Child positions from the scene's top level down to the node.
    public static func path(of node: Int, in index: SceneIndex) -> [Int] {
        var path: [Int] = []
        var current = node
        while let parent = index.nodes[current].parent {
            path.append(index.nodes[parent].children.firstIndex(of: current)!)
            current = parent
        }
        path.append(index.roots.firstIndex(of: current)!)
        return path.reversed()
    }

    public static func modify(_ regions: inout [Region], at path: ArraySlice<Int>, _ change: (inout Region) -> Void) {
        guard let first = path.first else { return }
        if path.count == 1 {
            change(&regions[first])
        } else {
            modify(&regions[first].children, at: path.dropFirst(), change)
        }
    }

    /// The node and every node below it.
    static func descendants(of node: Int, in index: SceneIndex) -> [Int] {
        var result: [Int] = []
        var stack = [node]
        while let current = stack.popLast() {
            result.append(current)
            stack.append(contentsOf: index.nodes[current].children)
        }
        return result
    }

    /// The region of `node` with its children, as it now stands.
    static func subtree(_ node: Int, in index: SceneIndex) -> Region {
        var region = index.nodes[node].region
        region.children = index.nodes[node].children.map { subtree($0, in: index) }
        return region
    }

    static func encoded(_ region: Region) -> [UInt8] {
        var writer = JSONWriter()
        SceneEncoder.encode(region, into: &writer)
        return writer.bytes
    }

    static func gestureNames(in index: SceneIndex) -> (String) -> Set<String>? {
        { id in index[id].map { Set($0.region.gestures.map(\.name)) } }
    }

    /// Gestures outside `regions` that wait for a gesture of one of them.
    static func dependents(on regions: Set<String>, in index: SceneIndex) -> [DroppedRelation] {
        var found: [DroppedRelation] = []
        for node in index.nodes where !regions.contains(node.id) {
            for spec in node.region.gestures {
                for reference in spec.requireToFail
                where regions.contains(SceneLoader.resolve(reference, from: node.id).region) {
                    found.append(DroppedRelation(region: node.id, gesture: spec.name, reference: reference))
                }
            }
        }
        return found
    }

    /// Removes the regions of `ids` wherever they are; the gestures of `waiting` ("region/gesture") keep only
    /// the waits for gestures of regions that stay.
    private static func prune(_ regions: inout [Region], removing ids: Set<String>, dropping waiting: Set<String>) {
        regions.removeAll { ids.contains($0.id) }
        for position in regions.indices {
            if !waiting.isEmpty {
                let id = regions[position].id
                for gesture in regions[position].gestures.indices
                where waiting.contains("\(id)/\(regions[position].gestures[gesture].name)") {
                    regions[position].gestures[gesture].requireToFail.removeAll {
                        ids.contains(SceneLoader.resolve($0, from: id).region)
                    }
                }
            }
            if !regions[position].children.isEmpty {
                prune(&regions[position].children, removing: ids, dropping: waiting)
            }
        }
    }

    /// A client's name for something, as an error repeats it: 64 characters at most.
    static func clipped(_ name: String) -> String { name.count > 64 ? name.prefix(64) + "…" : name }
}
