/// A JSON document problem: where (line and JSON path, e.g. `regions[2].frame`) and what.
public struct JSONFieldError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var path: String
    public var message: String

    public init(line: Int, path: String, message: String) {
        self.line = line
        self.path = path
        self.message = message
    }

    public var description: String { "line \(line): \(path.isEmpty ? "(document)" : path): \(message)" }
}

/// Reads the members of one JSON object with typed accessors that know their path, so every error says where.
/// Unknown keys are errors (`rejectUnknownKeys()`): a misspelt option in a scene or config must not pass silently.
public struct JSONObjectReader {
    public let value: JSONValue
    public let path: String
    private let members: [(key: String, value: JSONValue)]
    private var used: Set<String> = []

    public init(_ value: JSONValue, path: String) throws(JSONFieldError) {
        guard case .object(let members, _) = value else {
            throw JSONFieldError(line: value.line, path: path, message: "expected an object, found \(value.kindName)")
        }
        self.value = value
        self.path = path
        self.members = members
    }

    public func childPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    public mutating func raw(_ key: String) -> JSONValue? {
        used.insert(key)
        return members.first { $0.key == key }?.value
    }

    public func error(_ key: String?, _ message: String) -> JSONFieldError {
        let node = key.flatMap { k in members.first { $0.key == k }?.value } ?? value
        return JSONFieldError(line: node.line, path: key.map(childPath) ?? path, message: message)
    }

    public mutating func string(_ key: String) throws(JSONFieldError) -> String? {
        guard let node = raw(key) else { return nil }
        guard case .string(let text, _) = node else { throw mismatch(key, node, "a string") }
        return text
    }

    public mutating func requiredString(_ key: String) throws(JSONFieldError) -> String {
        guard let text = try string(key) else { throw error(nil, "missing required key '\(key)'") }
        return text
    }

    public mutating func number(_ key: String) throws(JSONFieldError) -> Double? {
        guard let node = raw(key) else { return nil }
        guard case .number(let number, _) = node else { throw mismatch(key, node, "a number") }
        return number
    }

    public mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int? {
        guard let number = try number(key) else { return nil }
        guard number.rounded() == number, let value = Int(exactly: number), range.contains(value) else {
            throw error(
                key,
                "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(NumberText.text(number))"
            )
        }
        return value
    }

    public mutating func bool(_ key: String) throws(JSONFieldError) -> Bool? {
        guard let node = raw(key) else { return nil }
        guard case .bool(let flag, _) = node else { throw mismatch(key, node, "true or false") }
        return flag
    }

    public mutating func array(_ key: String) throws(JSONFieldError) -> [JSONValue]? {
        guard let node = raw(key) else { return nil }
        guard case .array(let items, _) = node else { throw mismatch(key, node, "an array") }
        return items
    }

    public func rejectUnknownKeys() throws(JSONFieldError) {
        for member in members where !used.contains(member.key) {
            throw JSONFieldError(
                line: member.value.line, path: childPath(member.key), message: "unknown key '\(member.key)'")
        }
    }

    private func mismatch(_ key: String, _ node: JSONValue, _ expected: String) -> JSONFieldError {
        JSONFieldError(line: node.line, path: childPath(key), message: "expected \(expected), found \(node.kindName)")
    }
}

extension JSONValue {
    /// The numbers of an array of numbers, or nil.
    public var numbers: [Double]? {
        guard case .array(let items, _) = self else { return nil }
        var result: [Double] = []
        for item in items {
            guard case .number(let number, _) = item else { return nil }
            result.append(number)
        }
        return result
    }
}
