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

    public var description: String { "\(file):\(line): \(path.isEmpty ? "(document)" : path): \(message)" }
}
