extension JSONWriter {
    /// Writes a parsed value back as compact JSON: one line whatever the source's layout, so a file's text can go
    /// inside a newline-delimited request.
    public mutating func element(_ value: JSONValue) {
        switch value {
        case .null: nullElement()
        case .bool(let flag, _): element(flag)
        case .number(let number, _):
            // Integers as integers; anything else in Swift's shortest round-trip form, which is valid JSON.
            if number.rounded() == number, abs(number) < 9.0e15 {
                element(Int64(number))
            } else {
                rawElement(Array("\(number)".utf8))
            }
        case .string(let text, _): element(text)
        case .array(let items, _):
            beginArray()
            for item in items { element(item) }
            endArray()
        case .object(let members, _):
            beginObject()
            for member in members {
                key(string: member.key)
                element(member.value)
            }
            endObject()
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text (no newline).
    public var compactJSON: [UInt8] {
        var writer = JSONWriter()
        writer.element(self)
        return writer.bytes
    }
}
