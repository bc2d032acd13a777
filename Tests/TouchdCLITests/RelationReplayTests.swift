import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchGestures
import TouchRecordingFiles
import TouchScene
import TouchTestKit
import TouchdCLI

/// Gesture relations on real recordings, in device units (no axis stretched). What each file holds was tallied
/// from its raw events by scripts/tally-touches.py, independent of touchd (downs, ups, times from the first
/// down, largest distance from the down, first time beyond 10 units), noted at each test.
@Suite(
    "Relations on real recordings",
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct RelationReplayTests {
    struct Outcome {
        var summary: ReplaySummary
        var firstDown: EventTime

        /// `name state region +ms` of every gesture report but `changed`, times from the first down rounded to the
        /// millisecond (as the tally prints them).
        var log: [String] {
            summary.dispatched.compactMap { event in
                guard case .gesture(let region, let g) = event, g.event != .changed else { return nil }
                return "\(g.name) \(g.event.rawValue) \(region) +\(((g.time - firstDown).microseconds + 500) / 1000)"
            }
        }

        func gestures(_ name: String, _ state: GestureEventKind) -> [GestureEvent] {
            summary.dispatched.compactMap {
                if case .gesture(_, let g) = $0, g.name == name, g.event == state { g } else { nil }
            }
        }
    }

    func replay(_ relative: String, _ regions: String) throws -> Outcome {
        let recording = try RecordingLoader.load(path: SharedRecordings.path(relative))
        var settings = ReplayDriver.Settings()
        settings.scene = try SceneLoader.parse(
            #"{"size": [100000, 100000], "regions": ["# + regions + "]}", file: "relations.json")
        settings.mapping.outputSize = nil
        settings.filter = .off  // the expected outcomes come from the raw events, unfiltered
        settings.collectDispatched = true
        let summary = try ReplayDriver(recording: recording, settings: settings).run { _ in }
        let firstDown = try #require(
            summary.dispatched.lazy.compactMap { event -> EventTime? in
                if case .touch(let t) = event, t.phase == .down { t.time } else { nil }
            }.first)
        return Outcome(summary: summary, firstDown: firstDown)
    }

    static let whole = #""frame": [0, 0, 100000, 100000]"#
    static let calendar = "android-getevent-MonkeyHelper/converted-evemu/tablet-CalenderaddEvent.events"
    static let singleDrag = "android-getevent-MonkeyHelper/converted-evemu/tablet-single-drag.events"
    /// tablet-CalenderaddEvent (protocol A, tallied per SYN_REPORT frame): a flick 0-259 ms from (633, 654) to
    /// (379, 611), then seven still taps lifted at these times, each next down more than 300 ms later.
    static let calendarTapUps: [Int64] = [2466, 4069, 6013, 6720, 7139, 7628, 9719]

    // MARK: requireToFail

    static let paneInCard = """
        {"id": "card", \(whole), "gestures": [{"type": "tap", "name": "double-tap", "taps": 2}],
         "children": [{"id": "pane", \(whole), "gestures": [{"type": "tap", "requireToFail": ["card/double-tap"]}]}]}
        """

    @Test(
        "requireToFail: each of the calendar's seven taps fires 300 ms after its lift, when the card's double tap has failed"
    )
    func tapsWaitForTheCardsDoubleTap() throws {
        let outcome = try replay(Self.calendar, Self.paneInCard)
        #expect(outcome.log == Self.calendarTapUps.map { "tap ended pane +\($0 + 300)" })
        let plain = try replay(
            Self.calendar,
            Self.paneInCard.replacingOccurrences(
                of: #", "requireToFail": ["card/double-tap"]"#, with: ""))
        #expect(plain.log == Self.calendarTapUps.map { "tap ended pane +\($0)" })
    }

    // MARK: priority

    static let listWithRow = """
        {"id": "list", \(whole), "gestures": [{"type": "swipe", "priority": "high"}],
         "children": [{"id": "row", \(whole), "gestures": ["tap", "drag"]}]}
        """

    @Test("high priority: the calendar's flick is the list's swipe to the left; its taps are the row's")
    func flickIsTheListsSwipe() throws {
        let outcome = try replay(Self.calendar, Self.listWithRow)
        #expect(outcome.log == ["swipe ended list +259"] + Self.calendarTapUps.map { "tap ended row +\($0)" })
        #expect(outcome.gestures("swipe", .ended).first?.direction == .left)
        let plain = try replay(
            Self.calendar, Self.listWithRow.replacingOccurrences(of: #", "priority": "high""#, with: ""))
        #expect(Array(plain.log.prefix(2)) == ["drag began row +79", "drag ended row +259"])
    }

    /// tablet-single-drag: one finger from (1133, 500) to (1455, 492) over 967 ms, beyond 10 units at 177 ms:
    /// too slow for the list's swipe (500 ms), so the row's drag, held since 177 ms, begins at 500 ms.
    @Test("high priority: a slow drag is the row's, from the moment the list's swipe has failed")
    func slowDragIsTheRows() throws {
        let outcome = try replay(Self.singleDrag, Self.listWithRow)
        #expect(outcome.log == ["drag began row +500", "drag ended row +967"])
        #expect(outcome.gestures("drag", .ended).first?.translation == Point(x: 322, y: -8))
    }

    // MARK: sequenced

    /// chromiumos touch_TapSettings "tap-drag-right": a tap, then within 300 ms a finger that drags right.
    /// Tallied: (device, tap lift ms, drag lift ms, drag's end minus its start); every tap moved at most 8 units
    /// and every drag went down 47-142 ms after the tap lifted.
    static let tapDrags: [(String, Int64, Int64, Double, Double)] = [
        ("auron_paine_touchpad_90.0", 14, 1215, 721, 10), ("celes_touchpad_164.17", 76, 694, 207, 53),
        ("cyan_touchpad_42.0", 55, 700, 314, 131), ("daisy_touchpad_CYTRA-116002-00", 86, 1423, 284, 54),
        ("gandof_touchpad_113.0", 82, 563, 234, 98), ("heli_touchpad_95.0", 109, 415, 274, 102),
        ("link_touchpad_130.1", 68, 1453, 450, 4), ("nyan_big_touchpad_42.0", 70, 1333, 535, 84),
        ("orco_touchpad_114.0", 97, 485, 192, 129), ("parrot_touchpad_CYTRA-103002-00", 91, 1154, 190, 6),
        ("peach_pit_touchpad_130.35", 73, 1370, 525, 0), ("peppy_touchpad_CYTRA-103006-00", 62, 1710, 278, 3),
        ("samus_touchpad_164.17", 92, 1469, 260, 20), ("squawks_touchpad_57.0", 107, 1981, 663, 40),
        ("veyron_mighty_touchpad_100.0", 84, 1417, 962, -94),
    ]
    static let tapThenDragRegion =
        #"{"id": "r", "frame": [0, 0, 100000, 100000], "gestures": ["tap", "drag"], "sequenced": [["tap", "drag"]]}"#

    @Test("sequenced: tap then drag on the touchpad tap-and-drag recordings", arguments: 0..<15)
    func tapThenDrag(index: Int) throws {
        let (device, tapUp, dragUp, dx, dy) = Self.tapDrags[index]
        let outcome = try replay(
            "chromiumos-autotest/touch_TapSettings/\(device)_tap-drag-right", Self.tapThenDragRegion)
        #expect(outcome.log.first == "tap ended r +\(tapUp)")
        #expect(outcome.log.filter { $0.hasPrefix("drag began") }.count == 1)
        #expect(outcome.log.last == "drag ended r +\(dragUp)")
        #expect(outcome.log.count == 3)
        let translation = try #require(outcome.gestures("drag", .ended).first?.translation)
        #expect(abs(translation.x - dx) < 1e-9 && abs(translation.y - dy) < 1e-9)
    }

    /// The same test on two more devices, whose "tap" moved 18 (veyron_minnie) and 27 (x86-alex) units: no tap,
    /// so the drag after it is nothing either.
    @Test(
        "sequenced: a tap that moved beyond 10 units arms no drag",
        arguments: ["veyron_minnie_touchpad_102.0", "x86-alex_touchpad_1724"])
    func movedTapArmsNothing(device: String) throws {
        let outcome = try replay(
            "chromiumos-autotest/touch_TapSettings/\(device)_tap-drag-right", Self.tapThenDragRegion)
        #expect(outcome.log.isEmpty)
    }

    @Test("sequenced: a drag with no tap before it is nothing")
    func dragWithoutTap() throws {
        let outcome = try replay(
            Self.singleDrag, Self.tapThenDragRegion)
        #expect(outcome.log.isEmpty)
    }

    static let pressThenMove = """
        {"id": "r", \(whole), "gestures": [{"type": "long-press", "name": "press"}, {"type": "drag", "name": "move"}],
         "sequenced": [["press", "move"]]}
        """

    /// center_to_right_slow_link: one finger still (within 10 units) until 550 ms, then 934 units right by 2527 ms.
    @Test("sequenced: a finger held still and then dragged is a press and then a move")
    func pressThenMove() throws {
        let outcome = try replay(
            "chromiumos-firmware_TouchMTB/converted-evemu/data/center_to_right_slow_link.evemu", Self.pressThenMove)
        #expect(outcome.log.first == "press pressing r +0")
        #expect(outcome.log.dropFirst().first == "press began r +500")
        #expect(outcome.log.suffix(2) == ["press ended r +2527", "move ended r +2527"])
        #expect(outcome.log.filter { $0.hasPrefix("move began") }.count == 1)
    }

    @Test("sequenced: a drag that never held still is no press and no move")
    func dragIsNoPress() throws {
        let outcome = try replay(Self.singleDrag, Self.pressThenMove)
        #expect(outcome.log == ["press pressing r +0", "press failed r +177"])
    }
}
