import TouchCore
import TouchJSON

/// Sets a device's `calibration` in a touchd.json text, changing only the bytes it must: the rest of the file (its
/// spacing, order, other rules, number spelling) comes back as it was.
///
/// The device is named by its `name` (the kernel's device name, as a rule's `match.name`). The rule edited is the
/// last one whose `match` is exactly `{"name": NAME}`, unless a rule after it also sets `calibration` (the last
/// matching rule wins, and that one might match the device by other fields): then, and when there is no such rule,
/// a new rule `{"match": {"name": NAME}, "calibration": [...]}` is appended to `devices`, and `devices` is
/// created if the file has none.
public enum CalibrationRuleEdit {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case invalidJSON(String)
        case notAnObject
        case devicesNotAnArray

        public var description: String {
            switch self {
            case .invalidJSON(let message): "the configuration is not valid JSON: \(message)"
            case .notAnObject: "the configuration is not a JSON object"
            case .devicesNotAnArray: "the configuration's devices is not an array"
            }
        }
    }

    public static func apply(to text: String, deviceName: String, matrix: CalibrationMatrix) throws(Failure) -> String {
        var bytes = Array(text.utf8)
        do { _ = try JSONParser.parse(bytes) } catch { throw .invalidJSON(error.description) }
        guard let root = JSONSpan.scan(bytes), root.isObject else { throw .notAnObject }
        let matrixText = "[" + matrix.values.map(CalibrationText.number).joined(separator: ", ") + "]"
        let rule = "{\"match\": {\"name\": \(quoted(deviceName))}, \"calibration\": \(matrixText)}"

        guard let devices = root.members.first(where: { key(bytes, $0.key) == "devices" })?.value else {
            if let first = root.members.first {
                let insertion = "\"devices\": [\(rule)]," + whitespace(bytes, before: first.key.start)
                bytes.insert(contentsOf: Array(insertion.utf8), at: first.key.start)
            } else {
                bytes.replaceSubrange(root.start..<root.end, with: Array("{\"devices\": [\(rule)]}".utf8))
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard devices.isArray else { throw .devicesNotAnArray }

        let named = devices.elements.lastIndex { element in
            guard let match = element.members.first(where: { key(bytes, $0.key) == "match" })?.value,
                let value = try? JSONParser.parse(Array(bytes[match.start..<match.end]))
            else { return false }
            return value == .object([("name", .string(deviceName, line: 1))], line: 1)
        }
        let setsCalibration = { (element: JSONSpan) in
            element.members.contains { key(bytes, $0.key) == "calibration" }
        }
        if let named, !devices.elements[(named + 1)...].contains(where: setsCalibration) {
            let element = devices.elements[named]
            if let existing = element.members.first(where: { key(bytes, $0.key) == "calibration" })?.value {
                bytes.replaceSubrange(existing.start..<existing.end, with: Array(matrixText.utf8))
            } else {
                let last = element.members[element.members.count - 1].value
                let separator =
                    element.members.count >= 2
                    ? String(
                        decoding: bytes[element.members[0].value.end..<element.members[1].key.start], as: UTF8.self)
                    : ", "
                bytes.insert(contentsOf: Array((separator + "\"calibration\": " + matrixText).utf8), at: last.end)
            }
        } else if let last = devices.elements.last {
            let separator =
                devices.elements.count >= 2
                ? String(decoding: bytes[devices.elements[0].end..<devices.elements[1].start], as: UTF8.self)
                : "," + whitespace(bytes, before: devices.elements[0].start)
            bytes.insert(contentsOf: Array((separator + rule).utf8), at: last.end)
        } else {
            bytes.replaceSubrange(devices.start..<devices.end, with: Array("[\(rule)]".utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A key's text, unescaped.
    private static func key(_ bytes: [UInt8], _ span: JSONSpan) -> String? {
        guard case .string(let text, _)? = try? JSONParser.parse(Array(bytes[span.start..<span.end])) else {
            return nil
        }
        return text
    }

    /// The spaces and line breaks just before `position` (a value's own indentation, with its line break).
    private static func whitespace(_ bytes: [UInt8], before position: Int) -> String {
        var start = position
        while start > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start - 1]) { start -= 1 }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        return text.isEmpty ? " " : text
    }

    private static func quoted(_ text: String) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(string: text)
        writer.endObject()
        // `{"text":` less its braces and colon: the writer's escaping of one string.
        let written = String(decoding: writer.bytes, as: UTF8.self)
        return String(written.dropFirst().dropLast(2))
    }
}
