import TouchPosix

/// Where a streaming reader's bytes come from, read a piece at a time and read again from the start for a second
/// pass: a regular file is read twice from disk; a pipe, a FIFO or standard input from one cannot be rewound, so its
/// bytes are held in memory (as the whole-file readers hold every file). Tests give bytes directly.
public final class RecordingInput {
    private enum Storage {
        case file(FileStream)
        case memory([UInt8])
    }

    /// How messages name the input: the path, or `stdin` for `-`.
    public let name: String
    private let storage: Storage
    private var position = 0

    /// Opens `path` (`-` is standard input).
    public init(path: String) throws(RecordingError) {
        let stream: FileStream
        do {
            stream = try FileStream(path: path, standardInput: true)
        } catch {
            throw FileInput.recordingError(error)
        }
        name = stream.name
        if stream.isRewindable {
            storage = .file(stream)
        } else {
            do {
                storage = .memory(try stream.readAll())
            } catch {
                throw FileInput.recordingError(error)
            }
        }
    }

    public init(bytes: [UInt8], name: String) {
        self.name = name
        storage = .memory(bytes)
    }

    /// Up to `buffer.count` bytes; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int {
        switch storage {
        case .file(let stream):
            do {
                return try stream.read(into: buffer)
            } catch {
                throw FileInput.recordingError(error)
            }
        case .memory(let bytes):
            let count = min(buffer.count, bytes.count - position)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: count)
            }
            position += count
            return count
        }
    }

    /// Back to the first byte, for the next pass.
    func rewind() throws(RecordingError) {
        switch storage {
        case .file(let stream):
            do {
                try stream.rewind()
            } catch {
                throw FileInput.recordingError(error)
            }
        case .memory: position = 0
        }
    }
}
