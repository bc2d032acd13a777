/// Tells recording formats apart by content, so a file's name does not have to say.
public enum FormatDetection {
    public static func detect(_ bytes: [UInt8]) -> RecordingFormat? {
        let head = bytes.prefix(4096)
        if head.contains(0) { return .raw }
        var sawEvemuLine = false
        var result: RecordingFormat?
        try? forEachLine(in: Array(head)) { (line, _) throws(RecordingError) in
            guard result == nil else { return }
            let text = String(bytes: line)
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { return }
            if trimmed.hasPrefix("# EVEMU") { result = .evemu; return }
            if trimmed.hasPrefix("Input driver version") || trimmed.hasPrefix("Event: time ") {
                result = .evtest
                return
            }
            if trimmed.first == "#" { return }
            if trimmed.first == "[", trimmed.contains("]") { result = .getevent; return }
            let bytes = Array(trimmed.utf8)
            if bytes.count >= 2, bytes[1] == ASCII.colon, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[0]) {
                sawEvemuLine = true
                result = .evemu
                return
            }
            // A top-level YAML key; getevent's indented "  name:" lines are not.
            if trimmed.count == text.count, let colon = trimmed.firstIndex(of: ":"),
                trimmed[trimmed.startIndex..<colon].allSatisfy({
                    $0.isLetter || $0.isNumber || $0 == "_"
                })
            {
                result = .libinputRecord
            }
        }
        if result == nil && sawEvemuLine { return .evemu }
        return result
    }
}
