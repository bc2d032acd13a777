import Glibc

/// Reads a recording's bytes: a file, a pipe or FIFO (`touchd replay <(zcat x.evemu.gz)`), or standard input
/// for `-`. Every failure says why, with the system's reason, instead of a bare "cannot read".
enum FileInput {
    /// The name standard input goes by in messages and summaries.
    static let standardInputName = "stdin"

    static func read(_ path: String) throws(RecordingError) -> [UInt8] {
        if path == "-" { return try readAll(fd: 0, name: standardInputName) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw RecordingError(.unreadable, file: path, "cannot open: " + reason(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw RecordingError(.unreadable, file: path, reason(errno)) }
        // Regular files and pipes hold a recording; the rest never end or are not data.
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO: break
        case S_IFDIR: throw RecordingError(.unreadable, file: path, "is a directory, not a recording")
        case S_IFCHR:
            throw RecordingError(
                .unreadable, file: path,
                "is a character device: to use a live device run touchd run, to capture it touchd record")
        default: throw RecordingError(.unreadable, file: path, "is not a regular file or a pipe")
        }
        return try readAll(fd: fd, name: path)
    }

    private static func readAll(fd: Int32, name: String) throws(RecordingError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw RecordingError(.unreadable, file: name, "cannot read: " + reason(errno))
            }
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// A UTF-8 byte order mark (EF BB BF) some editors put at the start of a text file: not part of the text.
enum ByteOrderMark {
    static func stripped(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }
}
