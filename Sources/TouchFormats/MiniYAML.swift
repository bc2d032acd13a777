/// The subset of YAML that `libinput record` writes: block mappings and sequences by indentation, flow
/// sequences of scalars (`[0, 1, 2]`), plain and double-quoted scalars, `#` comments. Anchors, multi-line
/// scalars and flow mappings are not supported (libinput record does not write them). Every node keeps its
/// line so errors can point at it.
indirect enum YAMLNode: Equatable {
    case scalar(String, line: Int)
    case sequence([YAMLNode], line: Int)
    case mapping([(key: String, value: YAMLNode)], line: Int)

    var line: Int {
        switch self {
        case .scalar(_, let line), .sequence(_, let line), .mapping(_, let line): line
        }
    }

    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let entries, _) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    var scalar: String? {
        if case .scalar(let text, _) = self { return text }
        return nil
    }

    var items: [YAMLNode]? {
        if case .sequence(let items, _) = self { return items }
        return nil
    }

    static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a, _), .scalar(let b, _)): a == b
        case (.sequence(let a, _), .sequence(let b, _)): a == b
        case (.mapping(let a, _), .mapping(let b, _)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

/// One line of YAML as `MiniYAMLParser` reads it: its indent, its text without the comment and trailing blanks.
struct YAMLLine {
    var indent: Int
    var text: Substring
    var number: Int

    /// The line made of `raw` (line `number`), or nil for a blank or comment-only line, which the parser skips.
    init?(_ raw: Substring, number: Int) {
        let content = Self.stripComment(raw)
        let trimmed = content.drop { $0 == " " }
        guard !trimmed.allSatisfy({ $0 == " " || $0 == "\r" || $0 == "\t" }) else { return nil }
        indent = content.count - trimmed.count
        var text = trimmed
        while let last = text.last, last == " " || last == "\r" || last == "\t" { text = text.dropLast() }
        self.text = text
        self.number = number
    }

    init(indent: Int, text: Substring, number: Int) {
        self.indent = indent
        self.text = text
        self.number = number
    }

    /// The line up to a `#` that starts a comment (at the start or after a blank, outside quotes).
    private static func stripComment(_ line: Substring) -> Substring {
        var inQuotes = false
        var previous: Character = " "
        for position in line.indices {
            let character = line[position]
            if character == "\"" { inQuotes.toggle() }
            if character == "#" && !inQuotes && (previous == " " || previous == "\t" || position == line.startIndex) {
                return line[line.startIndex..<position]
            }
            previous = character
        }
        return line
    }
}

/// Where `MiniYAMLParser` takes its lines from, one at a time: a whole text, or a stream that holds one line.
protocol YAMLLineSource {
    /// The line the parser is at; nil after the last. The parser rewrites it for a `- key: value` item.
    var current: YAMLLine? { get set }
    mutating func advance() throws(RecordingError)
}

/// The lines of a whole text, split at `\n` characters as String splits them (so `\r\n`, one character, is not
/// a line end).
struct YAMLTextLines: YAMLLineSource {
    private var lines: [YAMLLine] = []
    private var index = 0

    init(text: String) {
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if let line = YAMLLine(raw, number: number) { lines.append(line) }
        }
    }

    var current: YAMLLine? {
        get { index < lines.count ? lines[index] : nil }
        set { if let newValue { lines[index] = newValue } }
    }

    mutating func advance() { index += 1 }
}

/// Parses the YAML subset above, taking lines from `Source` as it goes. The items of each device's `events`
/// list (`devices[N].events`, keys met first) can go to `eventItem` instead of into the tree, so that a caller
/// reading a long recording never holds its events: the tree then has that list empty.
struct MiniYAMLParser<Source: YAMLLineSource> {
    /// A step on the way from the document to the node being parsed; `.other` for a key met before in its
    /// mapping (readers take a key's first value).
    private enum PathStep: Equatable {
        case key(String)
        case index(Int)
        case other
    }

    private var source: Source
    private let file: String
    private var path: [PathStep] = []
    /// Takes the items of `devices[N].events`, with N; nil keeps them in the tree.
    var eventItem: ((_ device: Int, _ item: YAMLNode) -> Void)?

    init(source: Source, file: String) {
        self.source = source
        self.file = file
    }

    mutating func parseDocument() throws(RecordingError) -> YAMLNode {
        guard let first = source.current else { return .mapping([], line: 1) }
        let node = try parseBlock(indent: first.indent)
        if let line = source.current {
            throw error(
                line.number, "unexpected indentation; expected a key or '- ' item at column \(first.indent + 1)")
        }
        return node
    }

    private mutating func parseBlock(indent: Int) throws(RecordingError) -> YAMLNode {
        let line = source.current!
        if line.text.hasPrefix("- ") || line.text == "-" {
            return try parseSequence(indent: indent)
        }
        return try parseMapping(indent: indent)
    }

    /// The device whose `events` list the parser is at, when its items go to `eventItem`.
    private var streamedDevice: Int? {
        guard eventItem != nil, path.count == 3, path[0] == .key("devices"), case .index(let device) = path[1],
            path[2] == .key("events")
        else { return nil }
        return device
    }

    private mutating func parseSequence(indent: Int) throws(RecordingError) -> YAMLNode {
        let startLine = source.current!.number
        let streamed = streamedDevice
        var items: [YAMLNode] = []
        var count = 0
        while let line = source.current, line.indent == indent, line.text.hasPrefix("- ") || line.text == "-" {
            let rest = line.text.dropFirst(1).drop { $0 == " " }
            let itemIndent = indent + (line.text.count - rest.count)
            path.append(.index(count))
            let item: YAMLNode
            if rest.isEmpty {
                try source.advance()
                if let next = source.current, next.indent > indent {
                    item = try parseBlock(indent: next.indent)
                } else {
                    item = .scalar("", line: line.number)
                }
            } else if Self.keyValueSplit(rest) != nil {
                // "- key: value" opens a mapping whose keys line up with "key".
                source.current = YAMLLine(indent: itemIndent, text: rest, number: line.number)
                item = try parseMapping(indent: itemIndent)
            } else {
                item = try parseScalarOrFlow(rest, line: line.number)
                try source.advance()
            }
            path.removeLast()
            count += 1
            if let streamed, let eventItem {
                eventItem(streamed, item)
            } else {
                items.append(item)
            }
        }
        return .sequence(items, line: startLine)
    }

    private mutating func parseMapping(indent: Int) throws(RecordingError) -> YAMLNode {
        let startLine = source.current!.number
        var entries: [(key: String, value: YAMLNode)] = []
        while let line = source.current, line.indent == indent {
            if line.text.hasPrefix("- ") { break }
            guard let (key, value) = Self.keyValueSplit(line.text) else {
                throw error(line.number, "expected 'key: value', found '\(line.text)'")
            }
            try source.advance()
            if !value.isEmpty {
                entries.append((key, try parseScalarOrFlow(value, line: line.number)))
            } else if let next = source.current,
                next.indent > indent || (next.indent == indent && next.text.hasPrefix("- "))
            {
                path.append(entries.contains { $0.key == key } ? .other : .key(key))
                entries.append((key, try parseBlock(indent: next.indent)))
                path.removeLast()
            } else {
                entries.append((key, .scalar("", line: line.number)))
            }
        }
        if let line = source.current, line.indent > indent {
            throw error(line.number, "unexpected indentation")
        }
        return .mapping(entries, line: startLine)
    }

    private func parseScalarOrFlow(_ text: Substring, line: Int) throws(RecordingError) -> YAMLNode {
        if text.first == "[" {
            guard text.last == "]" else { throw error(line, "unterminated flow sequence '\(text)'") }
            let inner = text.dropFirst().dropLast()
            if inner.allSatisfy({ $0 == " " }) { return .sequence([], line: line) }
            let items = inner.split(separator: ",", omittingEmptySubsequences: false).map {
                YAMLNode.scalar(Self.unquote($0.trimmingSpaces()), line: line)
            }
            return .sequence(items, line: line)
        }
        if text.first == "{" {
            guard text == "{}" else { throw error(line, "flow mappings are not supported") }
            return .mapping([], line: line)
        }
        return .scalar(Self.unquote(text), line: line)
    }

    /// Splits `key: value` at the first `: ` (or a trailing `:`) outside quotes.
    private static func keyValueSplit(_ text: Substring) -> (String, Substring)? {
        var inQuotes = false
        var position = text.startIndex
        while position < text.endIndex {
            let character = text[position]
            if character == "\"" { inQuotes.toggle() }
            if character == ":" && !inQuotes {
                let next = text.index(after: position)
                if next == text.endIndex || text[next] == " " {
                    let key = unquote(text[text.startIndex..<position].trimmingSpaces())
                    let value = next == text.endIndex ? Substring("") : text[next...].trimmingSpaces()
                    return (key, value)
                }
            }
            position = text.index(after: position)
        }
        return nil
    }

    private static func unquote(_ text: Substring) -> String {
        if text.count >= 2, text.first == "\"", text.last == "\"" {
            return String(text.dropFirst().dropLast()).replacingEscapes()
        }
        return String(text)
    }

    private func error(_ line: Int, _ message: String) -> RecordingError {
        RecordingError(.badLine, file: file, line: line, message)
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var result = self.drop { $0 == " " || $0 == "\t" }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}

extension String {
    fileprivate func replacingEscapes() -> String {
        guard contains("\\") else { return self }
        var out = ""
        var escaping = false
        for character in self {
            if escaping {
                out.append(character == "n" ? "\n" : character == "t" ? "\t" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}
