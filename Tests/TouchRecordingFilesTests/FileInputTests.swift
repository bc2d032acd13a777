import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles

/// Where a recording comes from and what its first bytes may be: each failure says why.
@Suite("Recording input: files, pipes, BOM and NUL")
struct FileInputTests {
    /// One touch: down at (100, 200), up a frame later. Ten lines.
    static let evemu = """
        # EVEMU 1.3
        N: test
        A: 2f 0 9 0 0 0
        A: 35 0 4095 0 0 0
        A: 36 0 4095 0 0 0
        A: 39 0 65535 0 0 0
        E: 0.000001 0003 0039 1
        E: 0.000001 0003 0035 100
        E: 0.000001 0003 0036 200
        E: 0.000001 0000 0000 0
        E: 0.010000 0003 0039 -1
        E: 0.010000 0000 0000 0

        """

    func scratch(_ name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-input-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/" + name
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = try scratch(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a directory says it is one; a missing file says the system's reason")
    func directoryAndMissing() throws {
        let directory = try #require(throws: RecordingError.self) { try RecordingLoader.load(path: "/tmp") }
        #expect(directory.description == "/tmp: is a directory, not a recording")
        let missing = try #require(throws: RecordingError.self) {
            try RecordingLoader.load(path: "/nonexistent/x.evemu")
        }
        #expect(missing.description == "/nonexistent/x.evemu: cannot open: No such file or directory")
        #expect(missing.kind == .unreadable)
    }

    @Test("a character device is refused with the commands that read live devices")
    func characterDevice() throws {
        let error = try #require(throws: RecordingError.self) { try RecordingLoader.load(path: "/dev/zero") }
        #expect(error.description.hasPrefix("/dev/zero: is a character device"))
    }

    @Test("a FIFO is read to its end, like a pipe from a shell")
    func fifo() throws {
        let path = try scratch("recording.fifo")
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let source = try write(Array(Self.evemu.utf8), "source.evemu")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat '\(source)' > '\(path)'"]
        try writer.run()
        let recording = try RecordingLoader.load(path: path)
        writer.waitUntilExit()
        #expect(recording.events.count == 6)
    }

    @Test("a leading UTF-8 byte order mark is skipped, in recordings and in description files")
    func byteOrderMark() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(FormatDetection.detect(bom + Array(Self.evemu.utf8)) == .evemu)
        let recording = try RecordingLoader.load(path: try write(bom + Array(Self.evemu.utf8), "bom.evemu"))
        #expect(recording.events.count == 6)
        #expect(recording.description.name == "test")
        let events = Self.evemu.split(separator: "\n").filter { $0.hasPrefix("E:") }.joined(separator: "\n") + "\n"
        let eventsOnly = try write(Array(events.utf8), "events-only.events")
        let desc = try write(bom + Array("N: described\nA: 35 0 4095 0 0 0\nA: 36 0 4095 0 0 0\n".utf8), "bom.desc")
        #expect(try RecordingLoader.load(path: eventsOnly, descriptionPath: desc).description.name == "described")
    }

    @Test("a NUL byte early in evemu text: still evemu, and the NUL gets a file:line error")
    func nulInEvemu() throws {
        // Line 8 is "E: 0.000001 0003 0035 100"; the NUL replaces its last digit (column 25).
        var bytes = Array(Self.evemu.utf8)
        let line8 = Self.evemu.split(separator: "\n", omittingEmptySubsequences: false).prefix(7)
            .reduce(0) { $0 + $1.utf8.count + 1 }
        bytes[line8 + 24] = 0
        #expect(FormatDetection.detect(bytes) == .evemu)
        let path = try write(bytes, "nul.evemu")
        let error = try #require(throws: RecordingError.self) { try RecordingLoader.load(path: path) }
        #expect(
            error.description == "\(path):8: NUL byte at column 25: the text is damaged (or this is not evemu text)")
        let skipped = try RecordingLoader.load(path: path, options: ReadOptions(skipBadLines: true))
        #expect(skipped.skipped.count == 1)
        #expect(skipped.events.count == 5)
    }

    @Test("raw dumps stay raw: their first bytes are a time, with NULs in its high bytes")
    func rawStaysRaw() {
        let event = InputEvent(time: EventTime(microseconds: 1_500_000), type: 3, code: 0x35, value: 1)
        #expect(FormatDetection.detect(RawEventReader.write([event, event])) == .raw)
    }
}
