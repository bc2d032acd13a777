import Foundation
import FoundationXML
import Testing
import TouchCore
import TouchFormats
import TouchGestures
import TouchRecordingFiles
import TouchScene
import TouchTestKit
import TouchWire
import TouchdCLI

/// Replays through scenes, checked against answers known from how the recordings were made or measured
/// independently (a Python tally of the files, noted at each test).
@Suite("Replay through a scene")
struct SceneReplayTests {
    static let root = SharedRecordings.repositoryRoot

    /// Through the jitter filter given: the answers below are the files' own positions, so `off` unless a test is
    /// about what the filter does to a gesture.
    func replay(
        _ recording: Recording, scene: Scene, size: (Double, Double)?, filter: JitterFilter = .off
    ) throws -> ReplaySummary {
        var settings = ReplayDriver.Settings()
        settings.filter = filter
        settings.scene = scene
        settings.mapping.outputSize = size
        settings.collectDispatched = true
        return try ReplayDriver(recording: recording, settings: settings).run { _ in }
    }

    func gestures(_ summary: ReplaySummary) -> [GestureEvent] {
        summary.dispatched.compactMap { if case .gesture(_, let g) = $0, g.event == .ended { g } else { nil } }
    }

    /// scripts/make-demo-recording.py performs, on a 4096² panel shown at 1280x800: a tap at (200, 125) on
    /// "play", a double tap at (1062.5, 136.7) on "favourite", a drag of the knob by +375 in x, a two-finger
    /// pinch from 300 to 1100 device units apart on "photo" (scale 1100/300), a 900 ms press on "menu", and a
    /// three-finger tap on the background.
    @Test("the demo recording through the demo scene: each gesture on its region, the knob follows the drag")
    func demo() throws {
        let recording = try RecordingLoader.load(path: Self.root + "/config/demo/panel.evemu")
        let scene = try SceneLoader.parse(
            try String(contentsOfFile: Self.root + "/config/demo/scene.json", encoding: .utf8), file: "scene.json")
        let summary = try replay(recording, scene: scene, size: (1280, 800))
        #expect(
            summary.gesturesEnded == [
                "play/tap": 1, "favourite/double-tap": 1, "knob/drag": 1, "photo/pinch": 1, "menu/long-press": 1,
                "background/three-finger-tap": 1,
            ])
        #expect(
            summary.downsByRegion == ["play": 1, "favourite": 2, "knob": 1, "photo": 2, "menu": 1, "background": 3])
        let pinch = try #require(gestures(summary).first { $0.kind == .pinch })
        #expect(abs(pinch.scale - 1100.0 / 300.0) < 0.01)
        let moves = summary.dispatched.compactMap {
            if case .regionMoved(let id, let frame, _) = $0 { (id, frame) } else { nil }
        }
        #expect(moves.last?.0 == "knob")
        let knobX = try #require(moves.last?.1.x)
        #expect(abs(knobX - (30 + 375)) < 1e-9)  // 1200 device units → 375 output units
        // Through the default filter the knob ends at most the margin behind: 16.38 device units (4095/250, no fuzz
        // declared) of 0.3125 output units each, so within 5.12 of where the kernel's positions put it.
        let filtered = try replay(recording, scene: scene, size: (1280, 800), filter: .standard)
        #expect(filtered.gesturesEnded == summary.gesturesEnded)
        let filteredKnobX = try #require(
            filtered.dispatched.compactMap { if case .regionMoved(_, let frame, _) = $0 { frame.x } else { nil } }.last)
        #expect(abs(filteredKnobX - knobX) <= 16.38 * 0.3125)
        let press = try #require(gestures(summary).first { $0.kind == .longPress })
        #expect(
            press.time
                - (summary.dispatched.compactMap { event -> EventTime? in
                    if case .touch(let t) = event, t.region == "menu", t.phase == .up { return t.time }
                    return nil
                }.first ?? .zero) == EventTime.Duration(microseconds: 0))  // ends at the lift
    }

    @Test("the SVG is well-formed XML with one path per finger, and deterministic")
    func svg() throws {
        let recording = try RecordingLoader.load(path: Self.root + "/config/demo/panel.evemu")
        let scene = try SceneLoader.parse(
            try String(contentsOfFile: Self.root + "/config/demo/scene.json", encoding: .utf8), file: "scene.json")
        let summary = try replay(recording, scene: scene, size: (1280, 800))
        let svg = SVGRenderer.render(scene: scene, events: summary.dispatched)
        #expect(
            svg
                == SVGRenderer.render(
                    scene: scene, events: try replay(recording, scene: scene, size: (1280, 800)).dispatched))
        final class Counter: NSObject, XMLParserDelegate {
            var fingerPaths = 0
            var regions: Set<String> = []
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if name == "path" && attributes["class"] == "finger" {
                    fingerPaths += 1
                    regions.insert(attributes["data-region"] ?? "")
                }
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let counter = Counter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.fingerPaths == 10)
        #expect(counter.regions == ["play", "favourite", "knob", "photo", "menu", "background"])
    }

    /// A scene may name a region with any JSON string, control characters too; XML 1.0 allows none of them but tab,
    /// line feed and carriage return, so written raw they made the whole SVG unreadable.
    @Test("the SVG stays well-formed XML when a region id holds control characters")
    func svgControlCharacters() throws {
        let script = EventScript(start: EventTime(microseconds: 5_000_000))
        script.slot(0).trackingID(1).position(x: 1024, y: 2048).report()
        script.trackingID(-1).report()
        let recording = Recording(
            format: .evemu, description: TestDevices.touchscreen, descriptionSource: .embedded, events: script.events)
        var region = Region(id: "a\u{0}b\u{1}c\u{1B}[2J\u{7F}\td", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
        region.gestures = [GestureSpec(.tap)]
        let scene = Scene(width: 1280, height: 800, regions: [region])
        let svg = SVGRenderer.render(
            scene: scene, events: try replay(recording, scene: scene, size: (1280, 800)).dispatched)
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(svg.contains("a\u{FFFD}b\u{FFFD}c\u{FFFD}[2J"))
    }

    static let huge = Scene(width: 100_000, height: 100_000, regions: [])

    func wholeScreen(_ gestures: [GestureSpec], simultaneous: [[String]] = []) -> Scene {
        var region = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 100_000, height: 100_000))
        region.gestures = gestures
        region.simultaneous = simultaneous
        return Scene(width: 100_000, height: 100_000, regions: [region])
    }

    /// Measured independently from the files: the distance between the two fingers grows from 164.3 to 496.2
    /// device units (×3.020) in zoom-in and shrinks from 596.9 to 83.6 (×0.140) in zoom-out.
    @Test(
        "two-finger zooms give a pinch with the scale the files hold",
        .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)),
        arguments: [("zoom-in", 3.020), ("zoom-out", 0.140)])
    func zoom(name: String, expectedScale: Double) throws {
        let recording = try RecordingLoader.load(
            path: SharedRecordings.path("chromiumos-autotest/touch_TouchscreenZoom/samus_touchscreen_164.13_" + name))
        let scene = wholeScreen([GestureSpec(.pinch), GestureSpec(.rotate)], simultaneous: [["pinch", "rotate"]])
        let summary = try replay(recording, scene: scene, size: nil)  // device units: no axis is stretched
        let pinches = gestures(summary).filter { $0.kind == .pinch }
        #expect(pinches.count == 1)
        let scale = try #require(pinches.first?.scale)
        #expect(abs(scale - expectedScale) / expectedScale < 0.01)
        #expect(expectedScale > 1 ? scale > 1 : scale < 1)
    }

    /// The first position of each of the 12 touches in n4.events (1536 × 2560 units), tallied independently:
    /// 5 top-left, 5 top-right, 2 bottom-left, none bottom-right.
    @Test(
        "Nexus 4: each touch goes to the quadrant it went down in",
        .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
    func nexusQuadrants() throws {
        let recording = try RecordingLoader.load(
            path: SharedRecordings.path("xorg-integration-tests/touchscreens/n4.events"))
        let scene = try SceneLoader.parse(
            """
            {"size": [1536, 2560], "regions": [
              {"id": "top-left", "frame": [0, 0, 768, 1280]}, {"id": "top-right", "frame": [768, 0, 768, 1280]},
              {"id": "bottom-left", "frame": [0, 1280, 768, 1280]}, {"id": "bottom-right", "frame": [768, 1280, 768, 1280]}]}
            """, file: "quadrants.json")
        let summary = try replay(recording, scene: scene, size: nil)
        #expect(summary.downsByRegion == ["top-left": 5, "top-right": 5, "bottom-left": 2])
        // Capture: every event of a finger names the region of its down, even when it crosses into another.
        var regionOfFinger: [UInt32: String?] = [:]
        for case .touch(let touch) in summary.dispatched {
            if touch.phase == .down { regionOfFinger[touch.finger.rawValue] = touch.region }
            #expect(regionOfFinger[touch.finger.rawValue] == touch.region)
        }
    }

    /// Measured from the files: samus holds 33 ms without moving (a tap); cyan holds 875 ms moving 5 units and
    /// sumo 1048 ms not moving (presses: beyond the 500 ms a tap may last).
    @Test(
        "touchscreen tap recordings: a quick one is a tap, the held ones are long presses",
        .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)),
        arguments: [
            ("samus_touchscreen_164.13_tap", GestureKind.tap), ("cyan_touchscreen_0d10_tap", .longPress),
            ("sumo_touchscreen_22b90051_tap", .longPress),
        ])
    func taps(file: String, expected: GestureKind) throws {
        let recording = try RecordingLoader.load(
            path: SharedRecordings.path("chromiumos-autotest/touch_TouchscreenTaps/" + file))
        let summary = try replay(
            recording, scene: wholeScreen([GestureSpec(.tap), GestureSpec(.longPress)]), size: nil)
        #expect(gestures(summary).map(\.kind) == [expected])
    }
}
