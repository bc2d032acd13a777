/// A recording that cannot be read, with where and what: `file:line: field: problem`.
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case unreadable, unknownFormat, badLine, badNumber, unknownCode, wrongFieldCount, truncated, missingField
        case badDescription
        /// The file is not as it was when first read: a second pass would read something else.
        case changed
    }

    public var kind: Kind
    public var file: String
    /// 1-based line; for binary input the 1-based record number; nil when it concerns the whole file.
    public var line: Int?
    /// The field or key concerned, e.g. `E: value` or `devices[0].evdev.absinfo`.
    public var field: String?
    /// What was wrong and what was expected.
    public var message: String

    public init(_ kind: Kind, file: String, line: Int? = nil, field: String? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += field + ": " }
        return text + message
    }
}
