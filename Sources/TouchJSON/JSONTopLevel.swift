/// The raw bytes of chosen members of a JSON object, found without building its values: a request's `op` and
/// `id` can be read from a line of a megabyte in one pass over its bytes, where parsing it whole builds every
/// string and array in it (about 5 ms for a 230 kB scene).
public enum JSONTopLevel {
    /// Each of `keys` found at the object's top level, with its value's bytes; nil when the bytes are not a
    /// well-formed object as far as this scan can tell, or name one of `keys` twice (which `JSONParser` refuses),
    /// in which case the caller parses them whole for the error.
    public static func members(of bytes: [UInt8], _ keys: Set<String>) -> [String: ArraySlice<UInt8>]? {
        var position = 0
        func skipBlanks() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }
        /// Past a string whose opening quote is at `position`; false when it does not end.
        func skipString() -> Bool {
            position += 1
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""):
                    position += 1
                    return true
                default: position += 1
                }
            }
            return false
        }
        /// Past one value of any kind; false when it is cut short.
        func skipValue() -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            position += 1
                            return true
                        }
                    default: break
                    }
                    position += 1
                }
                return false
            default:
                let start = position
                while position < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(
                        bytes[position])
                {
                    position += 1
                }
                return position > start
            }
        }
        skipBlanks()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return nil }
        position += 1
        var found: [String: ArraySlice<UInt8>] = [:]
        skipBlanks()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") { return found }
        while true {
            skipBlanks()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            let keyStart = position + 1
            guard skipString() else { return nil }
            let raw = bytes[keyStart..<(position - 1)]
            // An escaped key (`"\u006fp"`) is the same key: read it as the parser would.
            var key = String(decoding: raw, as: UTF8.self)
            if raw.contains(UInt8(ascii: "\\")) {
                guard case .string(let decoded, _)? = try? JSONParser.parse(Array(bytes[(keyStart - 1)..<position]))
                else { return nil }
                key = decoded
            }
            skipBlanks()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            skipBlanks()
            let valueStart = position
            guard skipValue() else { return nil }
            if keys.contains(key) {
                guard found.updateValue(bytes[valueStart..<position], forKey: key) == nil else { return nil }
            }
            skipBlanks()
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: "}") { return found }
            guard bytes[position] == UInt8(ascii: ",") else { return nil }
            position += 1
        }
    }
}
