/// Writes log lines to stderr, each with one `write(2)` so lines from one process never interleave.
public struct StderrLogHandler: LogHandler {
    public init() {}

    public func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        StandardStreams.write(bytes, to: 2)
    }

    /// journald style when stderr is the journal (`JournalStream`); anywhere else (a terminal, a pipe, a file) the
    /// same lines with the program's name and the level in words, which a person or a script can read.
    public static var preferredStyle: Logger.Style { JournalStream.isStandardError ? .journald : .plain }
}

/// Buffered output to stdout, flushed in large writes; replay output can be millions of lines.
public struct OutputBuffer {
    private var buffer: [UInt8] = []
    private let fd: Int32
    private let flushThreshold: Int

    public init(fd: Int32 = 1, flushThreshold: Int = 64 * 1024) {
        self.fd = fd
        self.flushThreshold = flushThreshold
        buffer.reserveCapacity(flushThreshold * 2)
    }

    public mutating func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushThreshold { flush() }
    }

    public mutating func append(_ text: String) { append(Array(text.utf8)) }

    public mutating func flush() {
        guard !buffer.isEmpty else { return }
        StandardStreams.write(buffer, to: fd)
        buffer.removeAll(keepingCapacity: true)
    }
}

public enum StandardStreams {
    /// A command's output (help, a listing, a report): all of it, or the failure (a full disk, a closed pipe)
    /// for the command to report and end with.
    public static func output(_ text: String, to fd: Int32 = 1) throws(SystemError) {
        try Posix.writeAll(fd, Array(text.utf8))
    }

    public static func output(_ bytes: [UInt8], to fd: Int32 = 1) throws(SystemError) {
        try Posix.writeAll(fd, bytes)
    }

    /// Writes all bytes, for log lines and last words, which have nowhere to report their own failure; a closed
    /// pipe ends the write silently.
    public static func write(_ bytes: [UInt8], to fd: Int32) {
        try? Posix.writeAll(fd, bytes)
    }

    public static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
        try? Posix.writeAll(fd, bytes)
    }
}
