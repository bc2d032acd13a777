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

struct MiniYAMLParser {
    struct Line {
        var indent: Int
        var text: Substring
        var number: Int
    }

    private var lines: [Line] = []
    private var index = 0
    private let file: String

    init(text: String, file: String) {
        self.file = file
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let content = Self.stripComment(raw)
            let trimmed = content.drop { $0 == " " }
            guard !trimmed.allSatisfy({ $0 == " " || $0 == "\r" || $0 == "\t" }) else { continue }
            let indent = content.count - trimmed.count
            var text = trimmed
            while let last = text.last, last == " " || last == "\r" || last == "\t" { text = text.dropLast() }
            lines.append(Line(indent: indent, text: text, number: number))
        }
    }

    mutating func parseDocument() throws(RecordingError) -> YAMLNode {
        guard let first = lines.first else { return .mapping([], line: 1) }
        let node = try parseBlock(indent: first.indent)
        if index < lines.count {
            throw error(
                lines[index].number, "unexpected indentation; expected a key or '- ' item at column \(first.indent + 1)"
            )
        }
        return node
    }

    private mutating func parseBlock(indent: Int) throws(RecordingError) -> YAMLNode {
        let line = lines[index]
        if line.text.hasPrefix("- ") || line.text == "-" {
            return try parseSequence(indent: indent)
        }
        return try parseMapping(indent: indent)
    }

    private mutating func parseSequence(indent: Int) throws(RecordingError) -> YAMLNode {
        let startLine = lines[index].number
        var items: [YAMLNode] = []
        while index < lines.count, lines[index].indent == indent,
            lines[index].text.hasPrefix("- ") || lines[index].text == "-"
        {
            let line = lines[index]
            let rest = line.text.dropFirst(1).drop { $0 == " " }
            let itemIndent = indent + (line.text.count - rest.count)
            if rest.isEmpty {
                index += 1
                guard index < lines.count, lines[index].indent > indent else {
                    items.append(.scalar("", line: line.number))
                    continue
                }
                items.append(try parseBlock(indent: lines[index].indent))
            } else if Self.keyValueSplit(rest) != nil {
                // "- key: value" opens a mapping whose keys line up with "key".
                lines[index] = Line(indent: itemIndent, text: rest, number: line.number)
                items.append(try parseMapping(indent: itemIndent))
            } else {
                items.append(try parseScalarOrFlow(rest, line: line.number))
                index += 1
            }
        }
        return .sequence(items, line: startLine)
    }

    private mutating func parseMapping(indent: Int) throws(RecordingError) -> YAMLNode {
        let startLine = lines[index].number
        var entries: [(key: String, value: YAMLNode)] = []
        while index < lines.count, lines[index].indent == indent {
            let line = lines[index]
            if line.text.hasPrefix("- ") { break }
            guard let (key, value) = Self.keyValueSplit(line.text) else {
                throw error(line.number, "expected 'key: value', found '\(line.text)'")
            }
            index += 1
            if !value.isEmpty {
                entries.append((key, try parseScalarOrFlow(value, line: line.number)))
            } else if index < lines.count,
                lines[index].indent > indent
                    || (lines[index].indent == indent && lines[index].text.hasPrefix("- "))
            {
                entries.append((key, try parseBlock(indent: lines[index].indent)))
            } else {
                entries.append((key, .scalar("", line: line.number)))
            }
        }
        if index < lines.count, lines[index].indent > indent {
            throw error(lines[index].number, "unexpected indentation")
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
