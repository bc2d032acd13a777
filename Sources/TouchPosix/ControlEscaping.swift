/// Foreign text (a region id, a gesture name, a device's name, a file's bytes) made safe for a log line or a
/// terminal: every character that could end the line, move the cursor, talk to the terminal or reorder what is
/// shown becomes a visible escape, so one log call is one line and a replay's text output draws only what it says.
///
/// Escaped: C0 controls and DEL (`\n`, `\r`, `\t`, else `\x1b`-style), C1 controls (`\u{85}`: NEL ends a line for
/// some readers, CSI starts a sequence for some terminals), U+2028 and U+2029 (line and paragraph separators), and
/// the bidirectional embeddings, overrides and isolates (U+202A...U+202E, U+2066...U+2069), which can make a line
/// read differently from what it holds. A backslash becomes `\\`, so an escape in the output always means an
/// escaped character and never text that only looks like one.
public enum ControlEscaping {
    public static func escaped(_ text: String) -> String {
        // The common case, text with nothing to escape, costs one scan and no copy.
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}", "\u{7F}": out += "\\x" + hex(scalar.value, digits: 2)
            default: out += "\\u{" + hex(scalar.value, digits: 1) + "}"
            }
        }
        return out
    }

    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x5C, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
