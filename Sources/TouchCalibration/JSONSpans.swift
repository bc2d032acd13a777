/// Where each value of a valid JSON text sits, in bytes: enough to change one value and leave every other byte
/// (spacing, line breaks, key order, number spelling) as it was. The text must already have been
/// parsed by `JSONParser`; this only finds the places.
struct JSONSpan {
    /// The value's first byte and one past its last.
    var start: Int
    var end: Int
    /// An object's members (a key's span is its quoted text) or an array's elements; empty for a scalar.
    var members: [Member] = []
    var elements: [JSONSpan] = []
    var isObject = false
    var isArray = false

    struct Member {
        var key: JSONSpan
        var value: JSONSpan
    }

    init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    static func scan(_ bytes: [UInt8]) -> JSONSpan? {
        var scanner = Scanner(bytes: bytes)
        return scanner.value()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func value() -> JSONSpan? {
            skipSpace()
            guard position < bytes.count else { return nil }
            let start = position
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var span = JSONSpan(start: start, end: start)
                span.isObject = true
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    span.end = position
                    return span
                }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                    position += 1
                    guard let member = value() else { return nil }
                    span.members.append(Member(key: key, value: member))
                    skipSpace()
                    guard position < bytes.count else { return nil }
                    position += 1
                    if bytes[position - 1] == UInt8(ascii: "}") { break }
                }
                span.end = position
                return span
            case UInt8(ascii: "["):
                position += 1
                var span = JSONSpan(start: start, end: start)
                span.isArray = true
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    span.end = position
                    return span
                }
                while true {
                    guard let element = value() else { return nil }
                    span.elements.append(element)
                    skipSpace()
                    guard position < bytes.count else { return nil }
                    position += 1
                    if bytes[position - 1] == UInt8(ascii: "]") { break }
                }
                span.end = position
                return span
            case UInt8(ascii: "\""):
                return string()
            default:
                while position < bytes.count,
                    ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(
                        bytes[position])
                {
                    position += 1
                }
                return JSONSpan(start: start, end: position)
            }
        }

        mutating func string() -> JSONSpan? {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            let start = position
            position += 1
            while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard position < bytes.count else { return nil }
            position += 1
            return JSONSpan(start: start, end: position)
        }
    }
}
