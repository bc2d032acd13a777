import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles
import TouchScene
import TouchTestKit
import TouchdCLI

/// chromiumos touch_TouchscreenScroll: one finger scrolling on a touchscreen, in device units. Tallied by
/// scripts/tally-touches.py: each finger's end minus its start.
@Suite(
    "Scroll containers on real recordings",
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct ScrollReplayTests {
    static let moves: [(String, Double, Double)] = [
        ("cyan_touchscreen_0d10_scroll-down", 130, 1404), ("cyan_touchscreen_0d10_scroll-left", -1707, 89),
        ("cyan_touchscreen_0d10_scroll-right", 1959, 136), ("cyan_touchscreen_0d10_scroll-up", 42, -1369),
        ("samus_touchscreen_164.13_scroll-down", -6, 497), ("samus_touchscreen_164.13_scroll-left", -440, -22),
        ("samus_touchscreen_164.13_scroll-right", 618, 4), ("samus_touchscreen_164.13_scroll-up", 23, -419),
        ("sumo_touchscreen_22b90051_scroll-down", 174, 12693), ("sumo_touchscreen_22b90051_scroll-left", -20949, 1416),
        ("sumo_touchscreen_22b90051_scroll-right", 19941, -188), ("sumo_touchscreen_22b90051_scroll-up", 77, -10500),
        ("veyron_minnie_touchscreen_0a91_scroll-down", 103, 1175),
        ("veyron_minnie_touchscreen_0a91_scroll-left", -1864, 17),
        ("veyron_minnie_touchscreen_0a91_scroll-right", 1887, 42),
        ("veyron_minnie_touchscreen_0a91_scroll-up", -88, -963),
    ]

    func offsets(_ file: String, scroll: String) throws -> [Point] {
        let recording = try RecordingLoader.load(
            path: SharedRecordings.path("chromiumos-autotest/touch_TouchscreenScroll/" + file))
        var settings = ReplayDriver.Settings()
        settings.scene = try SceneLoader.parse(
            #"{"size": [100000, 100000], "regions": [{"id": "page", "frame": [0, 0, 100000, 100000], "scroll": "#
                + scroll + "}]}",
            file: "scroll.json")
        settings.mapping.outputSize = nil
        settings.filter = .off  // the finger's travel is counted on the raw events, unfiltered
        settings.collectDispatched = true
        let summary = try ReplayDriver(recording: recording, settings: settings).run { _ in }
        return summary.dispatched.compactMap { if case .regionScrolled(_, let offset, _) = $0 { offset } else { nil } }
    }

    /// Content 300000 units square shown from (100000, 100000): room every way; the content moves with the finger.
    @Test("the offset ends at its start minus the finger's travel", arguments: 0..<16)
    func offsetFollowsTheFinger(index: Int) throws {
        let (file, dx, dy) = Self.moves[index]
        let offsets = try offsets(file, scroll: #"{"contentSize": [300000, 300000], "offset": [100000, 100000]}"#)
        #expect(offsets.last == Point(x: 100_000 - dx, y: 100_000 - dy))
    }

    /// Content 100 units larger than the page each way, from (50, 50): every recording travels more than 50
    /// along its axis, so that axis ends at a bound (0 or 100).
    @Test("the offset stops at the content's bounds", arguments: 0..<16)
    func offsetStopsAtTheBounds(index: Int) throws {
        let (file, dx, dy) = Self.moves[index]
        let offsets = try offsets(file, scroll: #"{"contentSize": [100100, 100100], "offset": [50, 50]}"#)
        let last = try #require(offsets.last)
        func expected(_ travel: Double) -> Double { min(max(50 - travel, 0), 100) }
        #expect(last == Point(x: expected(dx), y: expected(dy)))
        #expect(offsets.allSatisfy { (0...100).contains($0.x) && (0...100).contains($0.y) })
    }
}
