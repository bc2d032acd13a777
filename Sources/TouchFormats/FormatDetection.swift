/// Tells recording formats apart by content, so a file's name does not have to say.
public enum FormatDetection {
    public static func detect(_ bytes: [UInt8]) -> RecordingFormat? {
        let head = ByteOrderMark.stripped(Array(bytes.prefix(4096)))
        // NUL bytes mean binary, unless the file starts like evemu text: a damaged evemu file is evemu, so its
        // reader can name the line with the NUL instead of a raw-dump error about record sizes.
        if head.contains(0) { return startsLikeEvemu(head) ? .evemu : .raw }
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

    /// A first line free of NUL that is `# EVEMU …` or an evemu line (`N:`, `I:`, … `E:` then a blank). A raw
    /// dump cannot: its first 8 bytes are a `tv_sec`, whose high bytes are 0 for any real time.
    static func startsLikeEvemu(_ head: [UInt8]) -> Bool {
        let line = head.prefix { $0 != ASCII.newline }
        guard !line.contains(0) else { return false }
        if line.starts(with: Array("# EVEMU".utf8)) { return true }
        let bytes = Array(line)
        return bytes.count >= 3 && Array("NIPBALSE".utf8).contains(bytes[0]) && bytes[1] == ASCII.colon
            && ASCII.isSpace(bytes[2])
    }
}
