import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles
import TouchScene
import TouchTestKit
import TouchdCLI

/// `touchd replay` reads its recording as a stream: the same bytes out as a replay of the recording loaded whole,
/// however the events are cut into batches, and from standard input as from the file.
@Suite(
    "Streaming replay", .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct StreamReplayTests {
    /// Long recordings (thousands of events, so batches cut frames) in four formats, protocols A and B, with the
    /// description embedded, in a sibling file, and inferred.
    static let files = [
        "tslib/Atmel_maXTouch_Touchscreen.ts-verify-1.events",
        "xorg-integration-tests/touchscreens/n4.events",
        "chromiumos-firmware_TouchMTB/original/data/finger_crossing.top_right_to_bottom_left.slow.dat",
        "libinput-record-yaml/ITE-8595-Touchpad_Acer-SW5-012.two-finger-scroll.yml",
        "android-getevent-MonkeyHelper/original/tablet-two-finger-drag.txt",
    ]

    @Test("streamed in batches of 1, 7 and 4096 events (those read ahead): output and summary as when loaded whole")
    func sameOutput() throws {
        var settings = ReplayDriver.Settings()
        settings.scene = try SceneLoader.parse(
            try Array(
                Data(contentsOf: URL(fileURLWithPath: SharedRecordings.repositoryRoot + "/config/demo/scene.json"))),
            file: "scene.json")
        for file in Self.files {
            let path = SharedRecordings.path(file)
            let recording = try RecordingLoader.load(path: path)
            for scene in [nil, settings.scene] {
                var current = settings
                current.scene = scene
                var expected: [UInt8] = []
                let expectedSummary = try ReplayDriver(recording: recording, settings: current).run { expected += $0 }
                let expectedReport = expectedSummary.report(file: path, recording: recording)
                for (bufferSize, batchSize) in [(7, 1), (64, 7), (RecordingStream.defaultBufferSize, 4096)] {
                    let bytes = try #require(FileManager.default.contents(atPath: path))
                    // Read in order on this thread for the small batches; for the default ones, as `touchd replay`
                    // reads with two processors: the first pass in two halves, the second read ahead.
                    let threaded = batchSize == 4096
                    let stream = try RecordingStream(
                        input: RecordingInput(bytes: Array(bytes), name: path), bufferSize: bufferSize,
                        batchSize: batchSize, splitSize: threaded ? 1 : nil)
                    var output: [UInt8] = []
                    let summary = try ReplayDriver.run(stream: stream, settings: current, readingAhead: threaded) {
                        output += $0
                    }
                    #expect(output == expected, "\(file), buffer \(bufferSize), batch \(batchSize)")
                    #expect(summary == expectedSummary)
                    #expect(summary.report(file: path, info: stream.info) == expectedReport)
                }
            }
        }
    }

    @Test("standard input, piped or redirected from the file, replays as the file does; errors name stdin")
    func standardInput() throws {
        // With its description inside: standard input has no sibling files to find one in.
        let path = SharedRecordings.path(
            "chromiumos-firmware_TouchMTB/converted-evemu/data/two_close_fingers_tracking.evemu")
        let fromFile = try runTouchd(["replay", path])
        #expect(fromFile.status == 0)
        let piped = try runTouchd(["replay", "-"], input: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(piped.stdout == fromFile.stdout)
        #expect(piped.stderr == fromFile.stderr.replacingOccurrences(of: path, with: "stdin"))
        // Redirected from a regular file, standard input can be read twice like the file itself.
        let redirected = try runTouchd(["replay", "-"], inputFile: path)
        #expect(redirected.stdout == fromFile.stdout)
        // Redirected after its first line (as `{ read -r line; touchd replay -; } < FILE` leaves it): the replay
        // starts there, and leaves standard input used up, as reading it through would, for whatever runs next.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let firstLine = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
        let rest = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-rest-\(getpid()).evemu")
        try bytes[firstLine...].write(to: rest)
        defer { try? FileManager.default.removeItem(at: rest) }
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(firstLine))
        let afterFirstLine = try runTouchd(["replay", "-"], inputHandle: handle)
        let fromRest = try runTouchd(["replay", rest.path])
        #expect(afterFirstLine.status == 0)
        #expect(afterFirstLine.stdout == fromRest.stdout)
        #expect(try handle.offset() == UInt64(bytes.count), "standard input is read to its end")
        let bad = try runTouchd(["replay", "-"], input: Data("# EVEMU 1.3\nE: 0.1 0003 0035 5\nE: 0.2 0003\n".utf8))
        #expect(bad.status == 65)
        #expect(bad.stdout.isEmpty, "a malformed file fails before anything is replayed")
        #expect(bad.stderr.contains("stdin:3: E: expected 4 fields"))
    }
}
