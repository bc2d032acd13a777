/// A JSON file that cannot be used, with file, line, JSON path and problem:
/// `scene.json:14: regions[1].children[0].frame: width must not be negative`. Scenes, the daemon's configuration
/// and actions files all fail this way (`SceneError`, `ConfigError` and `ActionsFileError` are this type).
public struct JSONFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var path: String
    public var message: String

    public init(file: String, line: Int, path: String, message: String) {
        self.file = file
        self.line = line
        self.path = path
        self.message = message
    }

    /// A field's problem, in the file it was read from.
    public init(file: String, _ error: JSONFieldError) {
        self.init(file: file, line: error.line, path: error.path, message: error.message)
    }

    /// Line 0 is no line (the file could not be read, or a field checked after parsing has no line): the file
    /// alone, then the path if there is one (`nosuch.json: cannot open: No such file or directory`).
    public var description: String {
        guard line > 0 else { return "\(file): " + (path.isEmpty ? "" : path + ": ") + message }
        return "\(file):\(line): \(path.isEmpty ? "(document)" : path): \(message)"
    }
}
