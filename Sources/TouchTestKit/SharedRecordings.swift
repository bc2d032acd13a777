import TouchPosix

/// The real recordings in ../shared/recordings (beside the repository), which tests read in place. In a user's
/// checkout they are absent, and the tests that need them skip saying so.
public enum SharedRecordings {
    /// The folder, found from this source file's place: <repo>/Sources/TouchTestKit/ → <repo>/../shared/recordings.
    public static let root: String = {
        if let override = Posix.environment("TOUCHD_RECORDINGS") { return override }
        let file = #filePath
        var parts = file.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // SharedRecordings.swift, TouchTestKit, Sources
        return parts.joined(separator: "/") + "/../shared/recordings"
    }()

    public static var available: Bool { Posix.isReadable(root + "/README.md") }

    public static let skipMessage = "../shared/recordings is absent (a user's checkout): real-recording tests skipped"

    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// The repository root, for tests that read shipped files (config/, the demo recording).
    public static let repositoryRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()
}
