import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles
import TouchScene
import TouchTestKit
import TouchdCLI

/// Fingers still down when a recording ends are ended with `cancel` at the stream's last time, and the summary
/// counts them (docs/protocol.md, "End of stream").
@Suite("End of stream")
struct EndOfStreamTests {
    func replay(_ recording: Recording, scene: Scene? = nil) throws -> (String, ReplaySummary) {
        var settings = ReplayDriver.Settings()
        settings.scene = scene
        if scene != nil { settings.mapping.outputSize = (1280, 800) }
        settings.collectDispatched = true
        var bytes: [UInt8] = []
        let summary = try ReplayDriver(recording: recording, settings: settings).run { bytes += $0 }
        return (String(decoding: bytes, as: UTF8.self), summary)
    }

    /// The Synaptics clickpad's two-finger-down file: two tracking ids open (slots 0 and 1), never -1; its last
    /// event, a SYN_REPORT, is at 1350451575.296131 (a Python tally of the file's E: lines).
    @Test(
        "a real recording that ends with two fingers down: two cancels at its last time, counted in the summary",
        .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
    func realRecordingEndsWithTwoFingersDown() throws {
        let path = SharedRecordings.path(
            "xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-down.events")
        let recording = try RecordingLoader.load(path: path)
        let (output, summary) = try replay(recording)
        #expect(summary.endedAtEndOfStream == 2)
        #expect(summary.phaseCounts[.cancel] == 2)
        #expect(summary.phaseCounts[.up] == nil)
        let last = output.split(separator: "\n").suffix(3).map(String.init)
        let cancel = #"{"type":"cancel","device":"replay","#
        #expect(last[0].hasPrefix(cancel + #""finger":1,"slot":0,"time_us":1350451575296131,"#))
        #expect(last[1].hasPrefix(cancel + #""finger":2,"slot":1,"time_us":1350451575296131,"#))
        #expect(last[2] == #"{"type":"frame","device":"replay","time_us":1350451575296131}"#)
        let report = summary.report(file: path, recording: recording)
        #expect(report.contains("  still down at the end of the stream: 2, ended with cancel"))
    }

    @Test(
        "a recording that lifts every finger gains nothing: the demo's summary has no end-of-stream line",
        .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
    func completeRecordingUnchanged() throws {
        let recording = try RecordingLoader.load(path: SharedRecordings.repositoryRoot + "/config/demo/panel.evemu")
        let (_, summary) = try replay(recording)
        #expect(summary.endedAtEndOfStream == 0)
        #expect(!summary.report(file: "demo", recording: recording).contains { $0.contains("end of the stream") })
    }

    /// The knob of the demo scene is centred at (255, 470): raw 816/2406 on a 4096² panel at 1280x800. The finger
    /// drags it 100 raw units right and the file ends. Through the default jitter filter (no fuzz declared:
    /// margins of 4095/250 = 16.38, released on motion) each 50-unit step is motion, reported where the kernel put
    /// it: 50 and 100 units of translation, 15.625 and 31.25 output units at 0.3125 a unit.
    @Test("a drag in progress at the end: the finger is cancelled, the drag is cancelled with its translation")
    func dragInProgressIsCancelled() throws {
        let script = EventScript(start: EventTime(microseconds: 2_000_000))
        script.slot(0).trackingID(5).position(x: 816, y: 2406).report()
        script.abs(AbsCode.mtPositionX, 866).report()
        script.abs(AbsCode.mtPositionX, 916).report()
        let recording = Recording(
            format: .evemu, description: TestDevices.touchscreen, descriptionSource: .embedded, events: script.events)
        let scene = try SceneLoader.parse(
            try String(contentsOfFile: SharedRecordings.repositoryRoot + "/config/demo/scene.json", encoding: .utf8),
            file: "scene.json")
        let (_, summary) = try replay(recording, scene: scene)
        #expect(summary.endedAtEndOfStream == 1)
        let touches = summary.dispatched.compactMap { event -> DispatchedTouch? in
            if case .touch(let touch) = event { touch } else { nil }
        }
        #expect(touches.map(\.phase) == [.down, .move, .move, .cancel])
        #expect(touches.last?.time == EventTime(microseconds: 2_020_000))  // the last frame's time
        let gestures = summary.dispatched.compactMap { event -> GestureEventSummary? in
            guard case .gesture(let region, let gesture) = event else { return nil }
            return GestureEventSummary(region: region.string, state: gesture.event.rawValue, dx: gesture.translation.x)
        }
        #expect(
            gestures == [
                GestureEventSummary(region: "knob", state: "began", dx: 15.625),
                GestureEventSummary(region: "knob", state: "changed", dx: 31.25),
                GestureEventSummary(region: "knob", state: "cancelled", dx: 31.25),
            ])
    }
}

struct GestureEventSummary: Equatable {
    var region: String
    var state: String
    var dx: Double
}
