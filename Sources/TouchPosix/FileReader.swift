#if canImport(Glibc)
    import Glibc
#endif

/// Reads a whole file for touchd: a recording, a scene, a configuration. Regular files and pipes (`<(zcat …)`, or
/// standard input as `-` where the caller allows it); every failure says why, with the system's reason.
public enum FileReader {
    /// The name standard input goes by in messages and summaries.
    public static let standardInputName = "stdin"

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public enum Reason: Equatable, Sendable {
            case cannotOpen(errno: Int32)
            case cannotRead(errno: Int32)
            case directory
            /// A device node: never ends, and is not a file's contents.
            case characterDevice
            case notAFile
        }

        public var path: String
        public var reason: Reason

        /// The reason alone (callers put the path where their format wants it).
        public var message: String {
            switch reason {
            case .cannotOpen(let code): "cannot open: " + String(cString: strerror(code))
            case .cannotRead(let code): "cannot read: " + String(cString: strerror(code))
            case .directory: "is a directory"
            case .characterDevice: "is a character device"
            case .notAFile: "is not a regular file or a pipe"
            }
        }

        public var description: String { "\(path): \(message)" }
    }

    public static func read(_ path: String, standardInput: Bool = false) throws(Failure) -> [UInt8] {
        if standardInput && path == "-" { return try readAll(fd: 0, name: standardInputName) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(path: path, reason: .cannotOpen(errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(path: path, reason: .cannotRead(errno: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO: break
        case S_IFDIR: throw Failure(path: path, reason: .directory)
        case S_IFCHR: throw Failure(path: path, reason: .characterDevice)
        default: throw Failure(path: path, reason: .notAFile)
        }
        return try readAll(fd: fd, name: path)
    }

    private static func readAll(fd: Int32, name: String) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result: Posix.IOResult
            do {
                result = try Posix.read(fd, into: &chunk, count: chunk.count)
            } catch {
                throw Failure(path: name, reason: .cannotRead(errno: error.errno))
            }
            switch result {
            case .bytes(let count): bytes.append(contentsOf: chunk[0..<count])
            case .endOfFile: return bytes
            // Standard input left nonblocking by another program, with nothing in it yet: this reader does not
            // wait, so it is the read's failure.
            case .wouldBlock: throw Failure(path: name, reason: .cannotRead(errno: EAGAIN))
            }
        }
    }
}
