#if canImport(Glibc)
    import Glibc
#endif

/// An open file read a piece at a time, for readers that must not hold a whole recording: a regular file, a pipe
/// or FIFO, or standard input (`-`). A regular file can also be read at any offset from where it was opened
/// (`read(into:at:)`), which a reader that needs two passes uses; a pipe cannot.
public final class FileStream {
    /// The path, or `FileReader.standardInputName` for standard input.
    public let name: String
    /// A regular file (standard input too, when redirected from one): `read(into:at:)` and `moveOffset(to:)` work.
    public let isRegularFile: Bool
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// Where reading started: standard input redirected from a file may not be at its start.
    private let startOffset: Int

    /// Opens `path` for reading; `-` is standard input when `standardInput` is set. Directories, device nodes and
    /// other non-files are refused, as `FileReader.read` refuses them.
    ///
    /// `regularOnly`: only a regular file will do (a scene read inside the daemon's loop): the open does not wait
    /// for a FIFO's writer, and a FIFO is refused like a directory.
    public init(path: String, standardInput: Bool = false, regularOnly: Bool = false) throws(FileReader.Failure) {
        if standardInput && path == "-" {
            name = FileReader.standardInputName
            fd = 0
            ownsDescriptor = false
        } else {
            name = path
            do {
                fd = try Posix.openFile(path, flags: O_RDONLY | (regularOnly ? O_NONBLOCK : 0))
            } catch {
                throw FileReader.Failure(path: path, reason: .cannotOpen(errno: error.errno))
            }
            ownsDescriptor = true
        }
        let info: stat
        do {
            info = try Posix.status(fd)
        } catch {
            if ownsDescriptor { Posix.close(fd) }
            throw FileReader.Failure(path: name, reason: .cannotRead(errno: error.errno))
        }
        // Standard input is taken as it comes (a terminal reads until end of file), as FileReader always has.
        let kind = info.st_mode & S_IFMT
        if ownsDescriptor {
            let refusal: FileReader.Failure.Reason? =
                switch kind {
                case S_IFREG: nil
                case S_IFIFO: regularOnly ? .notRegular : nil
                case S_IFDIR: .directory
                case S_IFCHR: .characterDevice
                default: regularOnly ? .notRegular : .notAFile
                }
            if let refusal {
                Posix.close(fd)
                throw FileReader.Failure(path: path, reason: refusal)
            }
        }
        let offset = kind == S_IFREG ? Posix.position(fd) : nil
        isRegularFile = offset != nil
        startOffset = offset ?? 0
    }

    deinit {
        if ownsDescriptor { Posix.close(fd) }
    }

    /// Reads up to `buffer.count` bytes into `buffer`; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileReader.Failure) -> Int {
        guard buffer.count > 0 else { return 0 }
        let result: Posix.IOResult
        do {
            result = try Posix.read(fd, into: buffer)
        } catch {
            throw FileReader.Failure(path: name, reason: .cannotRead(errno: error.errno))
        }
        switch result {
        case .bytes(let count): return count
        case .endOfFile: return 0
        case .wouldBlock:
            // Standard input left nonblocking by another program, with nothing in it yet: this reader does not wait,
            // so it is the read's failure.
            throw FileReader.Failure(path: name, reason: .cannotRead(errno: EAGAIN))
        }
    }

    /// Reads up to `buffer.count` bytes from `offset` (counted from where the file was opened) without moving the
    /// position `read(into:)` reads from: threads may read parts of one regular file at once.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FileReader.Failure) -> Int {
        guard buffer.count > 0 else { return 0 }
        do {
            return try Posix.read(fd, into: buffer, at: startOffset + offset)
        } catch {
            throw FileReader.Failure(path: name, reason: .cannotRead(errno: error.errno))
        }
    }

    /// Sets the descriptor's own position to `offset` (counted from where the file was opened), as far as reading
    /// with `read(into:)` would have left it: a shell that redirected standard input from a file goes on from there.
    public func moveOffset(to offset: Int) {
        guard isRegularFile else { return }
        Posix.seek(fd, to: startOffset + offset)
    }

    /// The file as it stands now (size, modification time, inode); nil when it is not a regular file.
    public var identity: FileIdentity? { isRegularFile ? FileIdentity(descriptor: fd) : nil }

    /// How many bytes the file holds now after where it was opened; nil when it is not a regular file.
    public var byteCount: Int? {
        guard isRegularFile else { return nil }
        guard let info = try? Posix.status(fd) else { return nil }
        return max(Int(info.st_size) - startOffset, 0)
    }

    /// The rest of the file, read through a 64 KiB buffer.
    /// Everything to the end; more than `limit` bytes is a failure (`.tooLarge`), read no further.
    public func readAll(limit: Int = .max) throws(FileReader.Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // A closure passed to withUnsafeMutableBytes can only throw untyped errors: the result carries it out.
            let count = try chunk.withUnsafeMutableBytes { raw in
                Result { () throws(FileReader.Failure) in try read(into: raw) }
            }.get()
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw FileReader.Failure(path: name, reason: .tooLarge(limit)) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
