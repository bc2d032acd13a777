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
            /// Refused where only a regular file will do.
            case notRegular
            /// Longer than the caller's limit (bytes).
            case tooLarge(Int)
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
            case .notRegular: "is not a regular file"
            case .tooLarge(let limit): "is larger than \(limit) bytes"
            }
        }

        public var description: String { "\(path): \(message)" }
    }

    public static func read(_ path: String, standardInput: Bool = false) throws(Failure) -> [UInt8] {
        try FileStream(path: path, standardInput: standardInput).readAll()
    }

    /// A regular file of at most `limit` bytes, for what the daemon reads inside its event loop (the scene): a FIFO
    /// would block the loop until a writer came, and a huge file would hold it for as long as it takes to read.
    public static func readRegularFile(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        try FileStream(path: path, regularOnly: true).readAll(limit: limit)
    }
}
