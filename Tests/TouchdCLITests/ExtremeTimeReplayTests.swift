import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchScene
import TouchTestKit
import TouchdCLI

/// Recordings whose times run backwards, sit at Int64's limits or span more than Int64 holds: each replays
/// cleanly, with and without a scene, and the summary says what happened.
@Suite("Replay at extreme times")
struct ExtremeTimeReplayTests {
    /// A 10-slot touchscreen, 0...4095 on both axes: at the demo scene's 1280x800, raw 640 is x 200, y 125.
    static let header = """
        # EVEMU 1.3
        N: extreme times
        I: 0003 0001 0001 0001
        P: 02 00 00 00 00 00 00 00
        A: 2f 0 9 0 0 0
        A: 35 0 4095 0 0 0
        A: 36 0 4095 0 0 0
        A: 39 0 65535 0 0 0

        """

    /// One finger: down at (100, 100) at 1.000000, a move at 1.010000, the lift stamped `liftTime`.
    static func backwards(liftTime: String) -> String {
        header + """
            E: 1.000000 0003 002f 0
            E: 1.000000 0003 0039 1
            E: 1.000000 0003 0035 100
            E: 1.000000 0003 0036 100
            E: 1.000000 0000 0000 0
            E: 1.010000 0003 0035 130
            E: 1.010000 0000 0000 0
            E: \(liftTime) 0003 0039 -1
            E: \(liftTime) 0000 0000 0

            """
    }

    /// Near the end of time: a tap on "play" (raw 640/640), a single tap on "favourite" (raw 3392/691) whose
    /// 300 ms double-tap window ends past Int64.max, and a press on "menu" (raw 1040/3482) still held when the
    /// file ends, 807 µs before the last representable microsecond.
    static let endOfTime =
        header + """
            E: 9223372036854.000000 0003 0039 1
            E: 9223372036854.000000 0003 0035 640
            E: 9223372036854.000000 0003 0036 640
            E: 9223372036854.000000 0000 0000 0
            E: 9223372036854.080000 0003 0039 -1
            E: 9223372036854.080000 0000 0000 0
            E: 9223372036854.700000 0003 0039 2
            E: 9223372036854.700000 0003 0035 3392
            E: 9223372036854.700000 0003 0036 691
            E: 9223372036854.700000 0000 0000 0
            E: 9223372036854.750000 0003 0039 -1
            E: 9223372036854.750000 0000 0000 0
            E: 9223372036854.760000 0003 0039 3
            E: 9223372036854.760000 0003 0035 1040
            E: 9223372036854.760000 0003 0036 3482
            E: 9223372036854.760000 0000 0000 0
            E: 9223372036854.775000 0003 0035 1041
            E: 9223372036854.775000 0000 0000 0

            """

    /// A raw dump: down at -9e12 s, a move and the lift at +9e12 s; the span, 1.8e19 µs, is beyond Int64.
    static func spanningDump() -> [UInt8] {
        let early = EventTime(seconds: -9_000_000_000_000, microseconds: 0)
        let late = EventTime(seconds: 9_000_000_000_000, microseconds: 0)
        func event(_ time: EventTime, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
            InputEvent(time: time, type: type, code: code, value: value)
        }
        return RawEventReader.write([
            event(early, EventType.abs, AbsCode.mtTrackingID, 1), event(early, EventType.abs, AbsCode.mtPositionX, 100),
            event(early, EventType.abs, AbsCode.mtPositionY, 100), event(early, EventType.syn, SynCode.report, 0),
            event(late, EventType.abs, AbsCode.mtPositionX, 120), event(late, EventType.syn, SynCode.report, 0),
            event(late, EventType.abs, AbsCode.mtTrackingID, -1), event(late, EventType.syn, SynCode.report, 0),
        ])
    }

    static let demoScene = SharedRecordings.repositoryRoot + "/config/demo/scene.json"

    func replay(_ recording: Recording, scene: Bool = false) throws -> (String, ReplaySummary) {
        var settings = ReplayDriver.Settings()
        if scene {
            settings.scene = try SceneLoader.parse(
                try String(contentsOfFile: Self.demoScene, encoding: .utf8), file: "scene.json")
            settings.mapping.outputSize = (1280, 800)
            settings.collectDispatched = true
        }
        var bytes: [UInt8] = []
        let summary = try ReplayDriver(recording: recording, settings: settings).run { bytes += $0 }
        return (String(decoding: bytes, as: UTF8.self), summary)
    }

    func evemu(_ text: String) throws -> Recording {
        try RecordingParser.parse(Array(text.utf8), format: .evemu, file: "test.evemu")
    }

    @Test("the last event 0.5 s before the first: time clamped, a 10 ms duration, the quirk counted")
    func halfSecondBack() throws {
        let recording = try evemu(Self.backwards(liftTime: "0.500000"))
        let (output, summary) = try replay(recording)
        // The lift is clamped to 1.010000, the latest time before it.
        #expect(output.contains(#"{"type":"up","device":"replay","finger":1,"slot":0,"time_us":1010000,"#))
        let report = summary.report(file: "test.evemu", recording: recording)
        #expect(report.contains("  events: 9, frames: 3, frames with touch changes: 3, duration: 0.010 s"))
        #expect(report.contains("  quirks: times that went backwards (clamped): 2"))
    }

    @Test("the latest time in the middle of a frame ends the duration; a last frame without a report counts its events")
    func latestInsideAFrame() throws {
        let text =
            Self.header + """
                E: 1.000000 0003 002f 0
                E: 1.000000 0003 0039 1
                E: 1.000000 0003 0035 100
                E: 1.020000 0003 0036 100
                E: 1.005000 0000 0000 0
                E: 1.010000 0003 0035 130
                E: 1.010000 0000 0000 0
                E: 1.015000 0003 0039 -1

                """
        let summary = try replay(try evemu(text)).1
        #expect(summary.events == 8)
        #expect(summary.frames == 2)
        #expect(summary.firstTime == EventTime(microseconds: 1_000_000))
        #expect(summary.lastTime == EventTime(microseconds: 1_020_000))
        #expect(summary.duration == EventTime.Duration(microseconds: 20_000))
    }

    @Test("the last event 5 ms before the first: the duration is 0.010 s, not \"0.0-5\"")
    func fiveMillisecondsBack() throws {
        let recording = try evemu(Self.backwards(liftTime: "0.995000"))
        let report = try replay(recording).1.report(file: "test.evemu", recording: recording)
        #expect(report.contains("  events: 9, frames: 3, frames with touch changes: 3, duration: 0.010 s"))
    }

    @Test("near Int64's limit through the demo scene: the taps fire, the saturated window closes at the end of time")
    func endOfTimeThroughAScene() throws {
        let (_, summary) = try replay(try evemu(Self.endOfTime), scene: true)
        #expect(summary.downsByRegion == ["play": 1, "favourite": 1, "menu": 1])
        #expect(summary.gesturesEnded == ["play/tap": 1, "favourite/tap": 1])
        #expect(summary.endedAtEndOfStream == 1)
        let gestures = summary.dispatched.compactMap { event -> (String, String, Int64)? in
            guard case .gesture(let region, let gesture) = event else { return nil }
            return (region.string, gesture.event.rawValue, gesture.time.microseconds)
        }
        #expect(gestures.map(\.0) == ["play", "menu", "menu", "favourite"])
        #expect(gestures.map(\.1) == ["ended", "pressing", "failed", "ended"])
        // The tap on play at its lift; the press fails at the end-of-stream cancel (the last event's time); the
        // favourite's single tap is released when its double-tap window, saturated at Int64.max, closes.
        #expect(
            gestures.map(\.2) == [
                9_223_372_036_854_080_000, 9_223_372_036_854_760_000, 9_223_372_036_854_775_000, .max,
            ])
    }

    @Test("a raw dump from -9e12 s to +9e12 s: the span saturates, nothing traps")
    func spanBeyondInt64() throws {
        var recording = try RecordingParser.parse(Self.spanningDump(), format: .raw, file: "span.raw")
        recording.description = TestDevices.touchscreen
        for scene in [false, true] {
            let (_, summary) = try replay(recording, scene: scene)
            #expect(summary.fingers == 1)
            #expect(summary.phaseCounts == [.down: 1, .move: 1, .up: 1])
            #expect(summary.duration == EventTime.Duration(microseconds: .max))
            let report = summary.report(file: "span.raw", recording: recording)
            #expect(report.contains { $0.hasSuffix("duration: 9223372036854.775 s") })
        }
    }

    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runTouchd(arguments)
    }

    @Test(
        "the binary: every extreme file replays with status 0, plain, through a scene and as text",
        .enabled(if: FileManager.default.isExecutableFile(atPath: touchdBinary)))
    func binary() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-time-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files: [(String, [UInt8])] = [
            ("back-500ms.evemu", Array(Self.backwards(liftTime: "0.500000").utf8)),
            ("back-5ms.evemu", Array(Self.backwards(liftTime: "0.995000").utf8)),
            ("equal.evemu", Array(Self.backwards(liftTime: "1.000000").utf8)),
            ("zero.evemu", Array(Self.backwards(liftTime: "0.000000").utf8)),
            ("end-of-time.evemu", Array(Self.endOfTime.utf8)),
            // The last event at Int64.max itself: the saturated deadlines come due inside the stream.
            ("last-microsecond.evemu", Array(Self.endOfTime.replacingOccurrences(of: ".775000", with: ".775807").utf8)),
            ("span.raw", Self.spanningDump()),
        ]
        for (name, bytes) in files {
            let path = directory.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            for extra in [[], ["--scene", Self.demoScene], ["--format", "text"]] {
                let result = try run(["replay", path] + extra)
                #expect(result.status == 0, "\(name) \(extra): \(result.stderr)")
            }
        }
    }
}
