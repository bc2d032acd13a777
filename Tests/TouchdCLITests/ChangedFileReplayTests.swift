import Foundation
import Testing
import TouchFormats
import TouchRecordingFiles
import TouchTestKit
import TouchdCLI

/// `touchd replay` reads a regular file twice: a file that changed between the passes is an error naming it, not a
/// replay of other events than the first pass checked.
@Suite("A recording that changes between replay's passes")
struct ChangedFileReplayTests {
    /// A tap: down at (100, 100), up 5 ms later. 11 lines, each event line 24 bytes.
    static let tap = """
        # EVEMU 1.3
        N: tap
        A: 2f 0 9 0 0 0
        A: 35 0 4095 0 0 0
        A: 36 0 4095 0 0 0
        A: 39 0 65535 0 0 0
        E: 1.000000 0003 0039 1
        E: 1.000000 0003 0035 100
        E: 1.000000 0003 0036 100
        E: 1.000000 0000 0000 0
        E: 1.005000 0003 0039 -1
        E: 1.005000 0000 0000 0

        """

    func withFile(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "touchd-changed-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).evemu"
        ).path
        try Self.tap.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    /// Replays `path` after `change` ran between the first pass (opening the stream) and the second.
    func replay(_ path: String, readingAhead: Bool, change: (String) throws -> Void) throws -> (
        error: RecordingError?, output: [UInt8]
    ) {
        let stream = try RecordingStream(path: path, splitSize: nil)
        try change(path)
        var output: [UInt8] = []
        do {
            _ = try ReplayDriver.run(stream: stream, settings: ReplayDriver.Settings(), readingAhead: readingAhead) {
                output += $0
            }
            return (nil, output)
        } catch let error as RecordingError {
            return (error, output)
        }
    }

    @Test(
        "grown, rewritten in place at the same size with another mtime, or truncated between the passes: .changed, the file named, nothing printed",
        arguments: [false, true])
    func changedBetweenPasses(readingAhead: Bool) throws {
        let changes: [(String, (String) throws -> Void)] = [
            (
                "grown",
                { path in
                    let handle = try #require(FileHandle(forWritingAtPath: path))
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data("E: 2.000000 0000 0000 0\n".utf8))
                    try handle.close()
                }
            ),
            (
                "rewritten",
                { path in
                    // The same length, another position (100 to 900), and a modification time a day earlier, so
                    // that the clock's granularity cannot hide it.
                    let text = Self.tap.replacingOccurrences(of: "0035 100", with: "0035 900")
                    let handle = try #require(FileHandle(forWritingAtPath: path))
                    try handle.write(contentsOf: Data(text.utf8))
                    try handle.close()
                    let earlier = try #require(
                        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
                    ).addingTimeInterval(-86_400)
                    try FileManager.default.setAttributes([.modificationDate: earlier], ofItemAtPath: path)
                }
            ),
            ("truncated", { path in truncate(path, 0) }),
        ]
        for (name, change) in changes {
            try withFile { path in
                let (error, output) = try replay(path, readingAhead: readingAhead, change: change)
                #expect(error?.kind == .changed, "\(name)")
                #expect(error?.file == path, "\(name)")
                #expect(error?.description.hasPrefix("\(path): changed since its first pass") == true, "\(name)")
                #expect(output.isEmpty, "\(name)")
            }
        }
    }

    @Test("a file left as it was replays its tap: two touches, a frame each")
    func unchanged() throws {
        try withFile { path in
            let (error, output) = try replay(path, readingAhead: false, change: { _ in })
            #expect(error == nil)
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
            #expect(lines.map { $0.contains(#""type":"down""#) } == [true, false, false, false])
            #expect(lines[2].contains(#""type":"up""#))
        }
    }
}
