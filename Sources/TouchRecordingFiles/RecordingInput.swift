import TouchFormats
import TouchPosix

/// Where a streaming reader's bytes come from, read a piece at a time and read again from the start for a second
/// pass: a regular file is read twice from disk; a pipe, a FIFO or standard input from one cannot be rewound, so its
/// bytes are held in memory (as the whole-file readers hold every file). Tests give bytes directly.
///
/// A regular file is read at explicit offsets (pread), not through the descriptor's own position, so `part`s of
/// one input can be read by two threads at once; the position is moved only when the whole input has been read to
/// its end.
public final class RecordingInput: RecordingSource {
    private enum Storage {
        case file(FileStream)
        case memory([UInt8])
    }

    /// How messages name the input: the path, or `stdin` for `-`.
    public let name: String
    private let storage: Storage
    /// This input's bytes start here in the storage, and end at `end` (nil: at the storage's end, however long it
    /// is when it is read).
    private let start: Int
    private let end: Int?
    private var position: Int
    /// A regular file as it stood when opened; nil for bytes held in memory, which cannot change.
    private let openedAs: FileIdentity?

    /// Opens `path` (`-` is standard input).
    public init(path: String) throws(RecordingError) {
        let stream: FileStream
        do {
            stream = try FileStream(path: path, standardInput: true)
        } catch {
            throw FileInput.recordingError(error)
        }
        name = stream.name
        if stream.isRegularFile {
            storage = .file(stream)
            openedAs = stream.identity
        } else {
            openedAs = nil
            do {
                storage = .memory(try stream.readAll())
            } catch {
                throw FileInput.recordingError(error)
            }
        }
        start = 0
        end = nil
        position = 0
    }

    public init(bytes: [UInt8], name: String) {
        self.name = name
        storage = .memory(bytes)
        openedAs = nil
        start = 0
        end = nil
        position = 0
    }

    private init(_ storage: Storage, name: String, start: Int, end: Int?, openedAs: FileIdentity?) {
        self.storage = storage
        self.openedAs = openedAs
        self.name = name
        self.start = start
        self.end = end
        position = start
    }

    /// How many bytes the input holds now; nil when that cannot be known (a file that fstat cannot measure).
    var byteCount: Int? {
        let total: Int?
        switch storage {
        case .file(let stream): total = stream.byteCount
        case .memory(let bytes): total = bytes.count
        }
        guard let total else { return nil }
        return max(min(end ?? total, total) - start, 0)
    }

    /// Bytes `from..<to` of this input (`to` nil: to its end), as an input of their own, read from their own
    /// position: one thread may read a part while another reads another part, or the whole.
    func part(from: Int, to: Int?) -> RecordingInput {
        let partEnd = to.map { start + $0 } ?? end
        return RecordingInput(storage, name: name, start: start + from, end: partEnd, openedAs: openedAs)
    }

    /// Up to `buffer.count` bytes; 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int {
        var wanted = buffer.count
        if let end { wanted = min(wanted, end - position) }
        guard wanted > 0 else { return 0 }
        let got: Int
        switch storage {
        case .file(let stream):
            do {
                got = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: position)
            } catch {
                throw FileInput.recordingError(error)
            }
            // Read to its end, the whole input leaves the descriptor there, as read(2) would have: standard input
            // redirected from a file is then used up for whatever the shell runs next.
            if got == 0 && start == 0 && end == nil { stream.moveOffset(to: position) }
        case .memory(let bytes):
            got = max(min(wanted, bytes.count - position), 0)
            guard got > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: got)
            }
        }
        position += got
        return got
    }

    /// The next `count` bytes, fewer only at the end.
    func read(upTo count: Int) throws(RecordingError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let start = filled
            // The closure's typed error comes out through a Result: withUnsafeMutableBytes only rethrows untyped ones.
            let got = try bytes.withUnsafeMutableBytes { raw in
                Result { () throws(RecordingError) in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
                }
            }.get()
            if got == 0 { break }
            filled += got
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// Throws `.changed` when the file is not as it was when opened: another size, modification time or inode.
    /// Read through the descriptor opened then, so a file renamed over the path since is not what is read (and is
    /// no change); a file written in place or truncated is.
    func checkUnchanged() throws(RecordingError) {
        guard let openedAs, case .file(let stream) = storage else { return }
        let now = stream.identity
        guard now != openedAs else { return }
        throw RecordingError(
            .changed, file: name,
            "changed since its first pass, from \(openedAs) to \(now.map(String.init(describing:)) ?? "unknown"): "
                + "a second pass would read other events than the first checked; replay it once it no longer changes")
    }

    /// Back to the first byte, for the next pass.
    public func rewind() {
        position = start
    }
}
