import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchPosix
import TouchRecordingFiles
import TouchTestKit
import TouchdCLI

@Suite("touchd replay")
struct ReplayTests {
    static let demo = SharedRecordings.repositoryRoot + "/config/demo/panel.evemu"

    func replay(_ recording: Recording, _ configure: (inout ReplayDriver.Settings) -> Void = { _ in }) throws -> (
        String, ReplaySummary
    ) {
        var settings = ReplayDriver.Settings()
        configure(&settings)
        var bytes: [UInt8] = []
        let summary = try ReplayDriver(recording: recording, settings: settings).run { bytes += $0 }
        return (String(decoding: bytes, as: UTF8.self), summary)
    }

    @Test("NDJSON lines for a hand-written stream, exactly")
    func exactNDJSON() throws {
        let script = EventScript(start: EventTime(microseconds: 5_000_000))
        script.slot(0).trackingID(1).position(x: 1024, y: 2048).abs(AbsCode.mtPressure, 9).report()
        script.trackingID(-1).report()
        let recording = Recording(
            format: .evemu, description: TestDevices.touchscreen, descriptionSource: .embedded, events: script.events)
        let (output, _) = try replay(recording) { $0.mapping.outputSize = (1920, 1080) }
        // 1024/4096·1920 = 480, 2048/4096·1080 = 540.
        #expect(
            output == """
                {"type":"down","device":"replay","finger":1,"slot":0,"time_us":5000000,"x":480,"y":540,"raw_x":1024,"raw_y":2048,"pressure":9}
                {"type":"frame","device":"replay","time_us":5000000}
                {"type":"up","device":"replay","finger":1,"slot":0,"time_us":5010000,"x":480,"y":540,"raw_x":1024,"raw_y":2048,"pressure":9}
                {"type":"frame","device":"replay","time_us":5010000}

                """)
    }

    /// The demo was written by scripts/make-demo-recording.py: a tap, a double tap, a drag, a two-finger pinch,
    /// a long press and a three-finger tap: 1 + 2 + 1 + 2 + 1 + 3 = 10 touches, at most 3 at once.
    @Test("the shipped demo: 10 touches, 3 at most, every one lifted")
    func demoCounts() throws {
        let (output, summary) = try replay(try RecordingLoader.load(path: Self.demo))
        #expect(summary.fingers == 10)
        #expect(summary.maxSimultaneous == 3)
        #expect(summary.phaseCounts[.up] == 10)
        #expect(summary.phaseCounts[.cancel] == nil)
        #expect(output.split(separator: "\n").count == summary.phaseCounts.values.reduce(0, +) + summary.touchFrames)
    }

    @Test("replay is deterministic: the same file gives the same bytes, text and NDJSON")
    func deterministic() throws {
        let recording = try RecordingLoader.load(path: Self.demo)
        for format in [ReplayDriver.OutputFormat.ndjson, .text] {
            let first = try replay(recording) {
                $0.format = format; $0.mapping.rotation = 90
            }.0
            let second = try replay(recording) {
                $0.format = format; $0.mapping.rotation = 90
            }.0
            #expect(first == second)
            #expect(!first.isEmpty)
        }
    }

    func run(_ arguments: [String], input: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try runTouchd(arguments, input: input)
    }

    @Test(
        "the touchd binary: summary on stderr, a bad file's error names file and line, exit codes",
        .enabled(if: FileManager.default.isExecutableFile(atPath: touchdBinary)))
    func binary() throws {
        let good = try run(["replay", Self.demo, "--size", "1280x800"])
        #expect(good.status == 0)
        #expect(good.stderr.contains("fingers: 10, max simultaneous: 3"))
        #expect(
            good.stdout.hasPrefix(#"{"type":"down","device":"replay","finger":1,"slot":0,"time_us":0,"x":200,"y":125"#))

        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-bad-\(getpid()).evemu").path
        try "# EVEMU 1.3\nE: 0.000001 0003 0039 0001\nE: 0.000002 0003 0035\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let failed = try run(["replay", bad])
        #expect(failed.status == 65)
        #expect(failed.stderr.contains("\(bad):3: E: expected 4 fields"))

        let skipped = try run(["replay", bad, "--skip-bad-lines"])
        #expect(skipped.status == 0)
        #expect(skipped.stderr.contains("skipped lines: 1"))

        // `-` is standard input, named "stdin" in the summary and in errors.
        let demo = try Data(contentsOf: URL(fileURLWithPath: Self.demo))
        let piped = try run(["replay", "-", "--size", "1280x800"], input: demo)
        #expect(piped.status == 0)
        #expect(piped.stdout == good.stdout)
        #expect(piped.stderr.contains("stdin: evemu 1.3"))
        let garbage = try run(["replay", "-"], input: Data("E: 1.0 0003\n".utf8))
        #expect(garbage.stderr.contains("stdin:1: E: expected 4 fields"))

        let usage = try run(["replay", "--speed", "warp", Self.demo])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--speed 'warp': expected one of realtime, max"))
    }
}
