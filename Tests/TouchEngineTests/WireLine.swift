import TouchJSON

/// One NDJSON line a client received, parsed with TouchJSON as a client would, so that tests assert on fields
/// rather than on byte layout. A line that does not parse keeps its text and has a `null` value (and fails any
/// field assertion).
struct WireLine: CustomStringConvertible {
    let text: String
    let value: JSONValue
    /// The source text of `id` as written (a Double would round ids above 2^53).
    let idSource: String?

    init(_ bytes: ArraySlice<UInt8>) {
        text = String(decoding: bytes, as: UTF8.self)
        if let parsed = try? JSONParser.parse(Array(bytes), keepingSourceOf: "id") {
            value = parsed.value
            idSource = parsed.source.map { String(decoding: $0, as: UTF8.self) }
        } else {
            value = .null(line: 0)
            idSource = nil
        }
    }

    /// The whole lines of a byte stream; an unfinished last line is left out.
    static func split(_ bytes: [UInt8]) -> [WireLine] {
        var lines: [WireLine] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            lines.append(WireLine(bytes[start..<index]))
            start = index + 1
        }
        return lines
    }

    var description: String { text }

    var type: String? { self["type"]?.string }

    subscript(key: String) -> JSONValue? { value[key] }

    func string(_ key: String) -> String? { value[key]?.string }
    func number(_ key: String) -> Double? { value[key]?.number }
    func bool(_ key: String) -> Bool? { value[key]?.bool }

    /// A reply's error code, nil for a successful reply.
    var errorCode: String? { value["error"]?["code"]?.string }

    /// `down`, `move`, `up`, `cancel`: a finger event.
    var isTouch: Bool { ["down", "move", "up", "cancel"].contains(type ?? "") }
}

extension JSONValue {
    var string: String? { if case .string(let text, _) = self { text } else { nil } }
    var number: Double? { if case .number(let number, _) = self { number } else { nil } }
    var bool: Bool? { if case .bool(let bool, _) = self { bool } else { nil } }
    var array: [JSONValue]? { if case .array(let items, _) = self { items } else { nil } }
    var isNull: Bool { if case .null = self { true } else { false } }
}

extension Array where Element == WireLine {
    /// The lines of one type, e.g. `lines.ofType("down")`.
    func ofType(_ type: String) -> [WireLine] { filter { $0.type == type } }

    /// The types in order: a compact picture of what a client got (`["down", "frame", "up", "frame"]`).
    var types: [String] { map { $0.type ?? "?" } }

    var touches: [WireLine] { filter(\.isTouch) }
}
