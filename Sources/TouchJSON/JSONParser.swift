/// A strict RFC 8259 parser over bytes that keeps line numbers (Foundation's JSONSerialization does not).
/// Limits nesting depth so hostile input cannot exhaust the stack.
public struct JSONParser {
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    /// A key of the top-level object whose value's source text is kept (`sourceOfWatchedKey`).
    private var watchedKey: String?
    private var sourceOfWatchedKey: ArraySlice<UInt8>?

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes, keepingSourceOf: nil).value
    }

    /// Parses, and also returns the exact source text of the top-level object's member `key`: a number is a
    /// Double in `JSONValue`, and a request id must be echoed as written, not as rounded.
    public static func parse(_ bytes: [UInt8], keepingSourceOf key: String?) throws(JSONSyntaxError) -> (
        value: JSONValue, source: ArraySlice<UInt8>?
    ) {
        var parser = JSONParser(bytes: bytes)
        parser.watchedKey = key
        // A UTF-8 byte order mark, which some editors write: not part of the text (RFC 8259 lets a parser skip it).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.position = 3
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return (value, parser.sourceOfWatchedKey)
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try parse(Array(text.utf8)) }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
        let startLine = line
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString(), line: startLine)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true, line: startLine)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false, line: startLine)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null(line: startLine)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber(), line: startLine)
        default:
            throw error("unexpected character '\(Character(Unicode.Scalar(bytes[position])))', expected a value")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        let startLine = line
        try enter()
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        var seenKeys: Set<String> = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            depth -= 1
            return .object(members, line: startLine)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a string key") }
            let key = try parseString()
            // A set once the object is large: a line of 80,000 keys must not cost 80,000² comparisons.
            if members.count < 16 {
                if members.contains(where: { $0.key == key }) { throw error("duplicate key \"\(key)\"") }
            } else {
                if seenKeys.isEmpty { seenKeys = Set(members.map(\.key)) }
                guard seenKeys.insert(key).inserted else { throw error("duplicate key \"\(key)\"") }
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after key \"\(key)\"") }
            position += 1
            skipWhitespace()
            let valueStart = position
            members.append((key, try parseValue()))
            if depth == 1 && key == watchedKey { sourceOfWatchedKey = bytes[valueStart..<position] }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                continue
            }
            guard peek(UInt8(ascii: "}")) else { throw error("expected ',' or '}' in object") }
            position += 1
            depth -= 1
            return .object(members, line: startLine)
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        let startLine = line
        try enter()
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            depth -= 1
            return .array(items, line: startLine)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                continue
            }
            guard peek(UInt8(ascii: "]")) else { throw error("expected ',' or ']' in array") }
            position += 1
            depth -= 1
            return .array(items, line: startLine)
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        position += 1
        var scalars: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                // JSON text is UTF-8 (RFC 8259 §8.1): bytes that are not would silently become U+FFFD, and a region
                // id, a command's argument or a file name would differ from what the file says.
                guard let string = String(validating: scalars, as: UTF8.self) else {
                    throw error("a string that is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "n"): scalars.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): scalars.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "r"): scalars.append(UInt8(ascii: "\r"))
                case UInt8(ascii: "b"): scalars.append(8)
                case UInt8(ascii: "f"): scalars.append(12)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), peek(UInt8(ascii: "\\")) {
                        position += 1
                        guard peek(UInt8(ascii: "u")) else { throw error("expected a low surrogate") }
                        position += 1
                        let low = try hex4()
                        // Only a low surrogate completes the pair (an arbitrary \u here underflowed: fuzzing).
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw error("invalid low surrogate in \\u escape")
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            case 0..<0x20:
                throw error("control character in string")
            default:
                scalars.append(byte)
                position += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = position
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit after '.'") }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected an exponent") }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite else {
            throw error("number out of range")
        }
        return value
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            position + count <= bytes.count && bytes[position..<(position + count)].elementsEqual(expected)
        }
        guard matches else { throw error("unexpected text, expected '\(literal)'") }
        position += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = position + 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                return
            }
            position += 1
        }
    }

    private func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: position - lineStart + 1, message: message)
    }
}
