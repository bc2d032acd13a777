/// Foreign text shown to a person in a message, not a log line: every character that could end the line, drive
/// the terminal or reorder what is shown (C0, DEL, C1, U+2028/2029, the bidirectional controls) is written as
/// `\u{…}`. Log lines go through `ControlEscaping` at the logger instead.
public enum ShownText {
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7f...0x9f, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
