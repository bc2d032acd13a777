/// A parsed JSON value that remembers the line it started on, so configuration and scene errors can say
/// `scene.json:12: regions[2].frame.w: must not be negative`.
public indirect enum JSONValue: Equatable, Sendable {
    case null(line: Int)
    case bool(Bool, line: Int)
    case number(Double, line: Int)
    case string(String, line: Int)
    case array([JSONValue], line: Int)
    /// Members in file order; a duplicate key is a parse error.
    case object([(key: String, value: JSONValue)], line: Int)

    public var line: Int {
        switch self {
        case .null(let line), .bool(_, let line), .number(_, let line), .string(_, let line), .array(_, let line),
            .object(_, let line):
            line
        }
    }

    /// `object`, `array`, `string`, `number`, `boolean` or `null`, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a, _), .bool(let b, _)): a == b
        case (.number(let a, _), .number(let b, _)): a == b
        case (.string(let a, _), .string(let b, _)): a == b
        case (.array(let a, _), .array(let b, _)): a == b
        case (.object(let a, _), .object(let b, _)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

/// A JSON syntax error with its line and column.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}
