import Testing
import TouchCore
import TouchEngine
import TouchFormats
import TouchRecordingFiles
import TouchScene
import TouchTestKit
import TouchWire

/// A touch that grows into a palm is cancelled at the very frame its major axis passes `palmSize`, for clients and
/// on the virtual touchscreen, on the Nexus 4 (xorg-integration-tests n4: protocol B, ABS_MT_TOUCH_MAJOR 0...15
/// with no resolution). The stream is the recording's first touch, up to the frame of its lift, with its first
/// touch major made 4 instead of 5 so that it goes down a finger under a threshold of 4; the recording then
/// grows it to 5 by itself (at 76.209392 s). scripts/vm-test.sh makes the same stream for the coexist guest
/// (Tests/vm/guest-coexist.sh), which plays it on a real kernel. The palm frame is found here from the raw events,
/// without the decoder.
@Suite(
    "Engine: a touch becomes a palm at the frame its size passes palmSize",
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct PalmFrameTests {
    static func isReport(_ event: InputEvent) -> Bool { event.type == EventType.syn && event.code == SynCode.report }

    static func stream() throws -> Recording {
        var recording = try RecordingLoader.load(
            path: SharedRecordings.path("xorg-integration-tests/touchscreens/n4.events"))
        let lift = try #require(
            recording.events.firstIndex { $0.type == EventType.abs && $0.code == AbsCode.mtTrackingID && $0.value < 0 })
        let report = try #require(recording.events[lift...].firstIndex(where: isReport))
        recording.events.removeSubrange((report + 1)...)
        let firstMajor = try #require(
            recording.events.firstIndex { $0.type == EventType.abs && $0.code == AbsCode.mtTouchMajor })
        #expect(recording.events[firstMajor].value == 5)
        recording.events[firstMajor].value = 4
        return recording
    }

    /// The stream's frames, each ending with its SYN_REPORT.
    static func frames(_ events: [InputEvent]) -> [[InputEvent]] {
        var frames: [[InputEvent]] = [[]]
        for event in events {
            frames[frames.count - 1].append(event)
            if isReport(event) { frames.append([]) }
        }
        return frames.filter { !$0.isEmpty }
    }

    /// The first frame at whose end a live touch's major, in millimetres (value / resolution) where the axis has a
    /// resolution and in units otherwise, is above `threshold`: slot state kept by hand from the raw events.
    static func firstPalmFrame(_ frames: [[InputEvent]], above threshold: Double, resolution: Int32) -> Int? {
        var slot: Int32 = 0
        var live: Set<Int32> = []
        var major: [Int32: Int32] = [:]
        for (index, frame) in frames.enumerated() {
            for event in frame where event.type == EventType.abs {
                switch event.code {
                case AbsCode.mtSlot: slot = event.value
                case AbsCode.mtTrackingID: if event.value < 0 { live.remove(slot) } else { live.insert(slot) }
                case AbsCode.mtTouchMajor: major[slot] = event.value
                default: break
                }
            }
            let size = { (units: Int32) in resolution > 0 ? Double(units) / Double(resolution) : Double(units) }
            if live.contains(where: { size(major[$0] ?? 0) > threshold }) { return index }
        }
        return nil
    }

    /// Feeds the stream frame by frame with `palmSize` set as the daemon sets it (`PalmSize.deviceUnits`), and
    /// checks that nothing is cancelled before `palmFrame` and that the cancel comes with it.
    func expectCancel(
        _ recording: Recording, palmSize: Double, at palmFrame: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let harness = EngineHarness(scene: Fixtures.scene(#"{"size": [1536, 2560], "regions": []}"#))
        var spec = DeviceSpec(key: .named("event5"), node: "/dev/input/event5", description: recording.description)
        spec.filter = .off
        spec.palmMajor = PalmSize.deviceUnits(palmSize, on: recording.description)
        spec.virtualTouchscreen = VirtualTouchscreen.description(for: recording.description)
        let device = try harness.addDevice(spec)
        let client = try harness.client()
        try harness.subscribe(client, #""events":["touch"]"#)
        let frames = Self.frames(recording.events)
        let isPalmFrame = { (frame: [InputEvent]) in
            frame.contains { $0.code == AbsCode.mtToolType && $0.value == ToolType.palm }
        }

        harness.feed(Array(frames[..<palmFrame].joined()), from: device)
        let before = harness[client].take().touches
        #expect(before.ofType("down").count == 1, sourceLocation: sourceLocation)
        #expect(before.ofType("cancel").isEmpty, sourceLocation: sourceLocation)
        #expect(!harness.emitted.map(\.frame).contains(where: isPalmFrame), sourceLocation: sourceLocation)
        let emittedBefore = harness.emitted.count

        harness.feed(frames[palmFrame], from: device)
        let cancels = harness[client].take().touches.ofType("cancel")
        #expect(cancels.count == 1, sourceLocation: sourceLocation)
        #expect(cancels.first?.string("tool") == "palm", sourceLocation: sourceLocation)
        let palmTime = try #require(frames[palmFrame].last).time
        #expect(cancels.first?.number("time_us") == Double(palmTime.microseconds), sourceLocation: sourceLocation)
        #expect(
            harness.emitted[emittedBefore...].map(\.frame).contains(where: isPalmFrame), sourceLocation: sourceLocation)

        // The rest (the palm moving, shrinking back to 4 and lifting) is nothing for clients or the compositor.
        harness.feed(Array(frames[(palmFrame + 1)...].joined()), from: device)
        #expect(harness[client].take().touches.isEmpty, sourceLocation: sourceLocation)
        #expect(harness.engine.virtualFingerCount(of: device) == 0, sourceLocation: sourceLocation)
        #expect(harness.engine.diagnostics(of: device)?.palmsBySize == 1, sourceLocation: sourceLocation)
    }

    @Test("in device units (the Nexus 4's major has no resolution): above 4, cancelled at the frame it reaches 5")
    func deviceUnits() throws {
        let recording = try Self.stream()
        let palmFrame = try #require(
            Self.firstPalmFrame(Self.frames(recording.events), above: 4, resolution: 0))
        // It went down a finger, and the recording grows it much later (at 76.209392 s, 0.93 s after the down).
        #expect(palmFrame > 10)
        #expect(try #require(Self.frames(recording.events)[palmFrame].last).time.microseconds == 76_209_392)
        try expectCancel(recording, palmSize: 4, at: palmFrame)
    }

    @Test("in millimetres where the axis has a resolution: 2 mm at 2 units/mm is above 4 units, the same frame")
    func millimetres() throws {
        var recording = try Self.stream()
        recording.description.absInfo[AbsCode.mtTouchMajor]?.resolution = 2
        let palmFrame = try #require(
            Self.firstPalmFrame(Self.frames(recording.events), above: 2, resolution: 2))
        try expectCancel(recording, palmSize: 2, at: palmFrame)
    }
}
