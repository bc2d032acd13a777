import TouchGestures
import TouchJSON

/// Relations between gestures (require-to-fail, sequences), checked once every region is known, and JSON syntax
/// errors put in a scene author's words.
extension SceneLoader {
    /// Every region's gesture names, for resolving `"regionId/name"` references.
    struct GestureDirectory {
        var names: [String: Set<String>] = [:]
        /// The gesture names of a region outside `names` (an edit's scene, read through its index), nil for none.
        var standing: (String) -> Set<String>? = { _ in nil }

        init(_ regions: [Region], standing: @escaping (String) -> Set<String>? = { _ in nil }) {
            self.standing = standing
            add(regions)
        }

        func gestures(of region: String) -> Set<String>? { names[region] ?? standing(region) }

        private mutating func add(_ regions: [Region]) {
            for region in regions {
                names[region.id] = Set(region.gestures.map(\.name))
                add(region.children)
            }
        }
    }

    /// A reference as written: `"name"` on `region`, or `"regionId/name"` (split at the last slash).
    public static func resolve(_ reference: String, from region: String) -> (region: String, name: String) {
        guard let slash = reference.lastIndex(of: "/") else { return (region, reference) }
        return (String(reference[..<slash]), String(reference[reference.index(after: slash)...]))
    }

    /// `"sequenced": [["press", "drag"], ...]`: each chain names at least two distinct gestures of this region, and a
    /// gesture is in at most one chain.
    static func decodeSequences(_ reader: inout JSONObjectReader, names: Set<String>) throws(JSONFieldError)
        -> [[String]]
    {
        var chains: [[String]] = []
        var seen: Set<String> = []
        for (index, chain) in (try reader.array("sequenced") ?? []).enumerated() {
            let chainPath = reader.childPath("sequenced") + "[\(index)]"
            guard case .array(let members, _) = chain, members.count >= 2 else {
                throw JSONFieldError(
                    line: chain.line, path: chainPath, message: "expected an array of two or more gesture names")
            }
            var list: [String] = []
            for member in members {
                guard case .string(let name, _) = member, names.contains(name) else {
                    throw JSONFieldError(
                        line: member.line, path: chainPath,
                        message: "'\(describe(member))' names no gesture of this region "
                            + "(has: \(names.sorted().joined(separator: ", ")))")
                }
                guard seen.insert(name).inserted else {
                    throw JSONFieldError(
                        line: member.line, path: chainPath, message: "'\(name)' is already in a sequence")
                }
                list.append(name)
            }
            chains.append(list)
        }
        return chains
    }

    /// Who waits for whom: `"regionId/name"` to the gestures it must see fail, and where each waiting is written.
    struct WaitGraph {
        var edges: [String: [String]] = [:]
        var sites: [String: (line: Int, path: String)] = [:]
    }

    /// Every `requireToFail` names an existing gesture other than itself, and no gesture ends up waiting for
    /// itself through others (requireToFail, high priority and a tap's wait for longer taps), which would hold
    /// both back for good.
    /// `items`: the regions' JSON, for the lines of errors; without it (an edit) a region is named by its id.
    /// `highAbove`: the high-priority gestures of the regions' ancestors. Regions outside `regions` are taken to
    /// wait for nothing among these: true of regions just added, which nothing could name before.
    static func checkRelations(
        _ regions: [Region], _ items: [JSONValue]?, path: String, in directory: GestureDirectory,
        highAbove: [String] = []
    ) throws(JSONFieldError) {
        var graph = WaitGraph()
        try checkRelations(regions, items, path: path, in: directory, highAbove: highAbove, graph: &graph)
        if let cycle = firstCycle(in: graph) {
            let site = graph.sites[cycle[0]] ?? (line: 1, path: "")
            throw JSONFieldError(
                line: site.line, path: site.path,
                message: "gestures wait for each other in a circle: " + cycle.joined(separator: " waits for ")
                    + " waits for \(cycle[0])")
        }
    }

    private static func checkRelations(
        _ regions: [Region], _ items: [JSONValue]?, path: String, in directory: GestureDirectory, highAbove: [String],
        graph: inout WaitGraph
    ) throws(JSONFieldError) {
        for (index, region) in regions.enumerated() {
            let item = items.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            let regionPath = item == nil ? "region '\(region.id)'" : "\(path)[\(index)]"
            let regionLine = item?.line ?? 0
            for (gestureIndex, spec) in region.gestures.enumerated() {
                let key = "\(region.id)/\(spec.name)"
                if !highAbove.isEmpty { graph.edges[key, default: []] += highAbove }
                if spec.kind == .tap {
                    for other in region.gestures
                    where other.kind == .tap && other.fingers == spec.fingers && other.taps > spec.taps {
                        graph.edges[key, default: []].append("\(region.id)/\(other.name)")
                    }
                }
                let gesturePath = "\(regionPath).gestures[\(gestureIndex)]"
                if graph.edges[key] != nil || !spec.requireToFail.isEmpty {
                    graph.sites[key] = (element(item?["gestures"], gestureIndex)?.line ?? regionLine, gesturePath)
                }
                guard !spec.requireToFail.isEmpty else { continue }
                let referencePath = gesturePath + ".requireToFail"
                let line = element(item?["gestures"], gestureIndex)?["requireToFail"]?.line ?? regionLine
                graph.sites[key] = (line, referencePath)
                for reference in spec.requireToFail {
                    let (target, name) = resolve(reference, from: region.id)
                    guard let names = directory.gestures(of: target) else {
                        throw JSONFieldError(
                            line: line, path: referencePath, message: "'\(reference)': no region '\(target)'")
                    }
                    guard names.contains(name) else {
                        throw JSONFieldError(
                            line: line, path: referencePath,
                            message: "'\(reference)': region '\(target)' has no gesture '\(name)' "
                                + "(has: \(names.sorted().joined(separator: ", ")))")
                    }
                    guard target != region.id || name != spec.name else {
                        throw JSONFieldError(
                            line: line, path: referencePath, message: "a gesture cannot wait for itself")
                    }
                    graph.edges[key, default: []].append("\(target)/\(name)")
                }
            }
            if !region.children.isEmpty {
                var childItems: [JSONValue]? = nil
                if case .array(let array, _)? = item?["children"] { childItems = array }
                let high = region.gestures.filter(\.highPriority).map { "\(region.id)/\($0.name)" }
                try checkRelations(
                    region.children, childItems, path: "\(regionPath).children", in: directory,
                    highAbove: highAbove + high, graph: &graph)
            }
        }
    }

    /// A circle of waits, in order, or nil. Depth-first without recursion: a hostile scene may chain thousands.
    static func firstCycle(in graph: WaitGraph) -> [String]? {
        enum Mark { case active, done }
        var marks: [String: Mark] = [:]
        for start in graph.edges.keys.filter({ !(graph.edges[$0]?.isEmpty ?? true) }).sorted()
        where marks[start] == nil {
            var path: [String] = [start]
            var next: [Int] = [0]
            marks[start] = .active
            while let node = path.last {
                let targets = graph.edges[node] ?? []
                let position = next[next.count - 1]
                guard position < targets.count else {
                    marks[node] = .done
                    path.removeLast()
                    next.removeLast()
                    continue
                }
                next[next.count - 1] += 1
                let target = targets[position]
                switch marks[target] {
                case .active?:
                    return Array(path[path.firstIndex(of: target)!...])
                case .done?:
                    continue
                case nil:
                    marks[target] = .active
                    path.append(target)
                    next.append(0)
                }
            }
        }
        return nil
    }

    private static func element(_ array: JSONValue?, _ index: Int) -> JSONValue? {
        guard case .array(let items, _)? = array, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The parser's message, unless the text at the error is a comma followed only by blanks and a closing bracket:
    /// then it is named as the trailing comma it is, which JSON does not allow.
    static func syntaxMessage(_ error: JSONSyntaxError, in bytes: [UInt8]) -> String {
        var offset = 0
        var line = 1
        while line < error.line, offset < bytes.count {
            if bytes[offset] == UInt8(ascii: "\n") { line += 1 }
            offset += 1
        }
        offset += error.column - 1
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "}") || bytes[offset] == UInt8(ascii: "]") else {
            return error.message
        }
        var before = offset - 1
        while before >= 0, [UInt8(ascii: " "), 9, 10, 13].contains(bytes[before]) { before -= 1 }
        guard before >= 0, bytes[before] == UInt8(ascii: ",") else { return error.message }
        let closer = bytes[offset] == UInt8(ascii: "}") ? "'}'" : "']'"
        return "trailing comma before \(closer) (JSON allows no comma after the last member)"
    }
}
