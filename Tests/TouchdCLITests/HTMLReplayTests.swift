import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchScene
import TouchTestKit
import TouchdCLI

/// The page `touchd replay --html` writes, for a hand-written stream whose every time and position is known.
/// (What a browser shows of it is checked in headless Chromium by scripts/html-test.sh.)
@Suite("Replay as an HTML page")
struct HTMLReplayTests {
    /// A region id that would end the page's script element if it were written raw.
    static let hostileID = "a</script><script>alert(1)</script>&\""

    /// On the 4096-unit test touchscreen shown as 1280 × 800: finger 1 goes down at device (1024, 2048) = scene
    /// (320, 400) in the hostile region (the left half), moves to (2048, 2048) = (640, 400) after 10 ms and lifts
    /// after 20 ms; finger 2 goes down at 30 ms at (3072, 1024) = (960, 200), on no region, and is still down when
    /// the stream ends, so it is cancelled there (30 ms).
    func page() throws -> String {
        let script = EventScript(start: EventTime(microseconds: 5_000_000))
        script.slot(0).trackingID(1).position(x: 1024, y: 2048).report()
        script.position(x: 2048, y: 2048).report()
        script.trackingID(-1).report()
        script.trackingID(2).position(x: 3072, y: 1024).report()
        let recording = Recording(
            format: .evemu, description: TestDevices.touchscreen, descriptionSource: .embedded, events: script.events)
        let scene = Scene(
            width: 1280, height: 800,
            regions: [Region(id: Self.hostileID, frame: Rect(x: 0, y: 0, width: 640, height: 800))])
        var settings = ReplayDriver.Settings()
        settings.scene = scene
        settings.mapping.outputSize = (1280, 800)
        settings.collectDispatched = true
        settings.filter = .off  // the page's positions are checked against the kernel's exactly
        let summary = try ReplayDriver(recording: recording, settings: settings).run { _ in }
        return HTMLRenderer.render(scene: scene, events: summary.dispatched, start: summary.firstTime!)
    }

    /// The replay's data, as the page's script reads it.
    func data(_ html: String) throws -> [String: Any] {
        let opening = "<script type=\"application/json\" id=\"replay\">"
        let start = try #require(html.range(of: opening)).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return try #require(try JSONSerialization.jsonObject(with: Data(html[start..<end].utf8)) as? [String: Any])
    }

    @Test("fingers, times from the first event and positions in scene units, exactly")
    func fingers() throws {
        let replay = try data(try page())
        #expect(replay["width"] as? Double == 1280)
        #expect(replay["height"] as? Double == 800)
        #expect(replay["duration_us"] as? Int == 30_000)
        let fingers = try #require(replay["fingers"] as? [[String: Any]])
        try #require(fingers.count == 2)
        #expect(fingers[0]["region"] as? String == Self.hostileID)
        // The page shades the shapes by this number, never by the id, which an attribute cannot always hold.
        #expect(fingers[0]["area"] as? Int == 0)
        #expect(fingers[1]["area"] is NSNull)
        #expect(fingers[0]["colour"] as? String == "#1f77b4")  // the first region's colour, as in the SVG
        #expect(fingers[0]["end"] as? String == "up")
        #expect(fingers[0]["t"] as? [Int] == [0, 10_000, 20_000])
        #expect(fingers[0]["x"] as? [Double] == [320, 640, 640])
        #expect(fingers[0]["y"] as? [Double] == [400, 400, 400])
        #expect(fingers[1]["region"] is NSNull)
        #expect(fingers[1]["colour"] as? String == "#7f7f7f")
        #expect(fingers[1]["end"] as? String == "cancel")
        #expect(fingers[1]["t"] as? [Int] == [30_000, 30_000])
        #expect(fingers[1]["x"] as? [Double] == [960, 960])
        #expect(fingers[1]["y"] as? [Double] == [200, 200])
    }

    @Test("the same input gives the same bytes; nothing is fetched; a hostile id stays text")
    func selfContained() throws {
        let html = try page()
        #expect(html == (try page()))
        // The data's own `</script>` became `\u003c/script>`: the page has exactly its two script elements' ends.
        #expect(html.components(separatedBy: "</script>").count == 3)
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("class=\"touchable\" data-area=\"0\""))
        #expect(html.contains("data-region=\"a&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;\""))
        // Every "http" is the SVG namespace (the svg element's and the script's, for createElementNS).
        #expect(html.components(separatedBy: "http").count == 3)
        #expect(html.components(separatedBy: "http://www.w3.org/2000/svg").count == 3)
        #expect(!html.contains("src=") && !html.contains("href="))
    }

    /// The page is written into the path as a shell's `>` writes: a temporary file renamed over the path would turn
    /// a symlink into a regular file (and, run as root, replace /dev/stdout itself for `--html /dev/stdout`), and
    /// would take a full disk (/dev/full) for a success.
    @Test(
        "--html and --svg write into the path as a shell's > does: through a symlink, and /dev/full is an error",
        .enabled(if: FileManager.default.isExecutableFile(atPath: touchdBinary), "touchd must be built first"))
    func writesThroughThePath() throws {
        let directory = NSTemporaryDirectory() + "touchd-html-write-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = SharedRecordings.repositoryRoot + "/config/demo/panel.evemu"
        let scene = SharedRecordings.repositoryRoot + "/config/demo/scene.json"
        for kind in ["html", "svg"] {
            let target = directory + "/target." + kind
            let link = directory + "/link." + kind
            try "old".write(toFile: target, atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let run = try runTouchd(["replay", recording, "--scene", scene, "--" + kind, link, "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            // Required: where the path is replaced rather than written, /dev/full below would be replaced too.
            try #require(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
            #expect(
                try String(contentsOfFile: target, encoding: .utf8).hasPrefix(kind == "html" ? "<!DOCTYPE" : "<?xml"))

            let full = try runTouchd(["replay", recording, "--scene", scene, "--" + kind, "/dev/full", "--quiet"])
            #expect(full.status == 74)
            #expect(full.stderr.contains("/dev/full: cannot write"), "\(full.stderr)")
        }
    }
}
