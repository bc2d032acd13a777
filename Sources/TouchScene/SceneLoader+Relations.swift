import TouchGestures
import TouchJSON

/// Relations between gestures (require-to-fail, sequences), checked once every region is known, and JSON syntax
/// errors put in a scene author's words.
extension SceneLoader {
    /// Every region's gesture names, for resolving `"regionId/name"` references.
    struct GestureDirectory {
        var names: [String: Set<String>] = [:]

        init(_ regions: [Region]) { add(regions) }

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
                        message: "names no gesture of this region (has: \(names.sorted().joined(separator: ", ")))")
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

    /// Every `requireToFail` names an existing gesture other than itself.
    static func checkRelations(_ regions: [Region], _ items: [JSONValue], path: String, in directory: GestureDirectory)
        throws(JSONFieldError)
    {
        for (index, (region, item)) in zip(regions, items).enumerated() {
            let regionPath = "\(path)[\(index)]"
            for (gestureIndex, spec) in region.gestures.enumerated() where !spec.requireToFail.isEmpty {
                let referencePath = "\(regionPath).gestures[\(gestureIndex)].requireToFail"
                let line = element(item["gestures"], gestureIndex)?["requireToFail"]?.line ?? item.line
                for reference in spec.requireToFail {
                    let (target, name) = resolve(reference, from: region.id)
                    guard let names = directory.names[target] else {
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
                }
            }
            if let children = item["children"], case .array(let childItems, _) = children {
                try checkRelations(region.children, childItems, path: "\(regionPath).children", in: directory)
            }
        }
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
