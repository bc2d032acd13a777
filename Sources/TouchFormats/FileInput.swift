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

/// A UTF-8 byte order mark (EF BB BF) some editors put at the start of a text file: not part of the text.
enum ByteOrderMark {
    static let bytes: [UInt8] = [0xEF, 0xBB, 0xBF]

    static func stripped(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: Self.bytes) ? Array(bytes.dropFirst(3)) : bytes
    }
}
