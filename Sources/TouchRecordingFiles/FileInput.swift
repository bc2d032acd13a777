import TouchFormats
import TouchPosix

/// Reads a recording's bytes through the one file reader (`FileReader`): a file, a pipe or FIFO
/// (`touchd replay <(zcat x.evemu.gz)`), or standard input for `-`.
enum FileInput {
    /// The name standard input goes by in messages and summaries.
    static let standardInputName = FileReader.standardInputName

    static func read(_ path: String) throws(RecordingError) -> [UInt8] {
        do {
            return try FileReader.read(path, standardInput: true)
        } catch {
            throw recordingError(error)
        }
    }

    /// A file reader's failure as a recording error, with the same words whichever way the file was read.
    static func recordingError(_ error: FileReader.Failure) -> RecordingError {
        switch error.reason {
        case .directory: RecordingError(.unreadable, file: error.path, "is a directory, not a recording")
        case .characterDevice:
            RecordingError(
                .unreadable, file: error.path,
                "is a character device: to use a live device run touchd run, to capture it touchd record")
        default: RecordingError(.unreadable, file: error.path, error.message)
        }
    }
}
