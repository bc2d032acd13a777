import Testing
import TouchCore
import TouchEngine
import TouchFormats
import TouchRecordingFiles
import TouchScene
import TouchTestKit
import TouchWire

/// Real recordings (../shared/recordings) played through the engine as live devices, a frame at a time, to
/// subscribers. The expected counts were tallied from the files independently of touchd (see
/// TouchFormatsTests' SharedRecordingsTests and TouchdCLITests' SceneReplayTests for the tallies).
@Suite(
    "Engine: real recordings to subscribers",
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct RealRecordingTests {
    func load(_ relative: String) throws -> Recording {
        try RecordingLoader.load(path: SharedRecordings.path(relative))
    }

    func spec(_ recording: Recording, key: String) -> DeviceSpec {
        DeviceSpec(key: .named(key), node: "/dev/input/" + key, description: recording.description)
    }

    /// n4.events: a Nexus 4 (0...1535 × 0...2559, so a 1536 × 2560 scene is one unit per device unit) with 12
    /// touches whose downs fall 5 top-left, 5 top-right, 2 bottom-left and none bottom-right.
    @Test("Nexus 4: each subscriber gets the downs of its quadrants, each finger keeps the region of its down")
    func nexusQuadrants() throws {
        let recording = try load("xorg-integration-tests/touchscreens/n4.events")
        let scene = Fixtures.scene(
            """
            {"size": [1536, 2560], "regions": [
              {"id": "top-left", "frame": [0, 0, 768, 1280]}, {"id": "top-right", "frame": [768, 0, 768, 1280]},
              {"id": "bottom-left", "frame": [0, 1280, 768, 1280]},
              {"id": "bottom-right", "frame": [768, 1280, 768, 1280]}]}
            """)
        let harness = EngineHarness(scene: scene)
        let device = try harness.addDevice(spec(recording, key: "event4"))
        let everything = try harness.client()
        try harness.subscribe(everything, #""events":["touch"]"#)
        let topLeft = try harness.client()
        try harness.subscribe(topLeft, #""regions":["top-left"]"#)
        let right = try harness.client()
        try harness.subscribe(right, #""regions":["top-right","bottom-right"]"#)
        let bottomRight = try harness.client()
        try harness.subscribe(bottomRight, #""events":["touch"],"regions":["bottom-right"]"#)
        harness.feed(recording.events, from: device)

        let all = harness[everything].take()
        #expect(all.ofType("down").count == 12)
        #expect(all.ofType("up").count == 12)
        #expect(all.ofType("cancel").isEmpty)
        var downsByRegion: [String: Int] = [:]
        for down in all.ofType("down") { downsByRegion[down.string("region") ?? "-", default: 0] += 1 }
        #expect(downsByRegion == ["top-left": 5, "top-right": 5, "bottom-left": 2])
        var regionOfFinger: [Double: String] = [:]
        for touch in all {
            let finger = try #require(touch.number("finger"))
            let region = try #require(touch.string("region"))
            if touch.type == "down" { regionOfFinger[finger] = region }
            #expect(regionOfFinger[finger] == region)
        }
        #expect(harness[topLeft].take().ofType("down").count == 5)
        #expect(harness[right].take().ofType("down").count == 5)
        #expect(harness[bottomRight].take().isEmpty)
        #expect(harness.engine.decoder(of: device)?.liveFingerCount == 0)
    }

    /// ntrig-xt2-4-tap.event: protocol A (SYN_MT_REPORT, no tracking ids), four fingers down together.
    @Test("N-Trig four-finger tap (protocol A): four downs and four ups on the whole-screen region")
    func ntrigFourFingers() throws {
        let recording = try load("evemu/ntrig-xt2-4-tap.event")
        let harness = EngineHarness(
            scene: Fixtures.scene(#"{"size": [9601, 7201], "regions": [{"id": "all", "frame": [0, 0, 9601, 7201]}]}"#))
        let device = try harness.addDevice(spec(recording, key: "event6"))
        let client = try harness.client()
        try harness.subscribe(client, #""events":["touch"]"#)
        harness.feed(recording.events, from: device)
        let touches = harness[client].take()
        #expect(touches.ofType("down").count == 4)
        #expect(touches.ofType("up").count == 4)
        #expect(Set(touches.ofType("down").compactMap { $0.number("finger") }).count == 4)
        #expect(touches.allSatisfy { $0.string("region") == "all" && $0.string("device") == "event6" })
    }

    /// The Synaptics clickpad's two-finger-down file leaves two tracking ids open (slots 0 and 1); its last event
    /// is at 1350451575.296131.
    @Test("a recording that ends with two fingers down: the end of the stream cancels both at its last time")
    func endOfRecording() throws {
        let recording = try load(
            "xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-down.events")
        let harness = EngineHarness()
        let device = try harness.addDevice(spec(recording, key: "replay0"))
        let client = try harness.client()
        try harness.subscribe(client, #""events":["touch"]"#)
        harness.feed(recording.events, from: device)
        #expect(harness.now == EventTime(microseconds: 1_350_451_575_296_131))
        _ = harness[client].take()
        harness.endOfStream(device)
        let cancels = harness[client].take()
        #expect(cancels.types == ["cancel", "cancel"])
        #expect(cancels.map { $0.number("slot") } == [0, 1])
        #expect(cancels.allSatisfy { $0.number("time_us") == 1_350_451_575_296_131 })
    }
}
