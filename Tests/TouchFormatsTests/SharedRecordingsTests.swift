import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles
import TouchTestKit

/// Real recordings made by others (../shared/recordings). Expected counts were derived independently of
/// touchd: a separate tally of `ABS_MT_TRACKING_ID` values per slot (protocol B) or of contacts per
/// `SYN_MT_REPORT` frame (protocol A), cross-checked with the file names (ntrig-xt2-N-tap holds N fingers) and
/// by reading the small files by hand.
@Suite(
    "Shared real recordings", .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct SharedRecordingsTests {
    /// Every recording file: everything but descriptions, licences, source lists and the kernel docs' symbols.
    static func allRecordingFiles() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: SharedRecordings.root) else { return [] }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = SharedRecordings.path(relative)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            let name = (relative as NSString).lastPathComponent
            let ext = (name as NSString).pathExtension
            if ["desc", "prop", "device", "md", "tsv", "txt"].contains(ext) && !relative.contains("/original/") {
                continue
            }
            if name == "LICENSE" || name.hasPrefix("SOURCES") || relative.contains("/device/") { continue }
            files.append(relative)
        }
        return files.sorted()
    }

    /// The one file that is documented not to be a recording: a quoted excerpt without the header.
    static let fragment = "libinput-record-yaml/FRAGMENT_Cirque-121F-touchpad_hid-mt-stuck-release.yml-fragment"

    @Test("every recording parses and decodes; nothing is left stuck that the file did not leave down")
    func everyRecordingParses() throws {
        let files = Self.allRecordingFiles()
        #expect(files.count > 300)
        var failures: [String] = []
        for file in files where file != Self.fragment {
            do {
                let recording = try RecordingLoader.load(path: SharedRecordings.path(file))
                #expect(!recording.events.isEmpty, "\(file) has no events")
                _ = DecodedRecording(recording)
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("the libinput record fragment is refused with a clear error (documented skip)")
    func fragmentIsRefused() throws {
        let error = try #require(throws: RecordingError.self) {
            try RecordingLoader.load(path: SharedRecordings.path(Self.fragment))
        }
        #expect(error.kind == .missingField)
        #expect(error.field == "version")
    }

    @Test(
        "distinct touches and maximum simultaneous touches match the independent tally",
        arguments: [
            ("evemu/wetab.event", 11, 1),  // protocol B, never sends ABS_MT_SLOT
            ("xorg-integration-tests/touchscreens/n4.events", 12, 4),  // Nexus 4, 4 contacts
            ("chromiumos-autotest/touch_TouchscreenZoom/samus_touchscreen_164.13_zoom-in", 2, 2),
            ("chromiumos-autotest/touch_TouchscreenZoom/samus_touchscreen_164.13_zoom-out", 2, 2),
            ("evemu/ntrig-xt2-1-tap.event", 1, 1),  // protocol A N-Trig
            ("evemu/ntrig-xt2-3-tap.event", 3, 3),
            ("evemu/ntrig-xt2-4-tap.event", 4, 4),
            ("evemu/ntrig-dell-xt2.event", 4, 4),
            ("android-getevent-MonkeyHelper/converted-evemu/phone-three-touches.events", 3, 1),  // ids restart at 0
            ("android-getevent-MonkeyHelper/converted-evemu/tablet-two-finger-drag.events", 2, 2),
            ("android-getevent-MonkeyHelper/original/phone-three-touches.txt", 3, 1),  // getevent -lt
            (
                "chromiumos-firmware_TouchMTB/converted-evemu/data/finger_crossing.top_right_to_bottom_left.slow.evemu",
                8, 2
            ),
            ("chromiumos-firmware_TouchMTB/converted-evemu/data/one_finger_without_slot_0.evemu", 1, 1),
            ("chromiumos-firmware_TouchMTB/converted-evemu/data/two_finger_without_slot_0.evemu", 2, 2),
            ("chromiumos-firmware_TouchMTB/original/data/two_finger_without_slot_0.dat", 2, 2),  // evtest
            ("tslib/Atmel_maXTouch_Touchscreen.ts-verify-1.events", 1, 1),
            ("libinput-record-yaml/ITE-8595-Touchpad_Acer-SW5-012.two-finger-scroll.yml", 2, 2),
            // Single touch (ABS_X/ABS_Y + BTN_TOUCH only): two BTN_TOUCH presses in the file.
            ("xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-tap-and-move.events", 2, 1),
        ] as [(String, Int, Int)])
    func touchCounts(file: String, fingers: Int, maxSimultaneous: Int) throws {
        let decoded = DecodedRecording(try RecordingLoader.load(path: SharedRecordings.path(file)))
        #expect(decoded.fingers == fingers)
        #expect(decoded.maxSimultaneous == maxSimultaneous)
        #expect(decoded.liveAtEnd == 0)
    }

    @Test("Nexus 4: the first touch goes down where the file says (slot 0, raw 890/576, pressure 55)")
    func nexusFirstTouch() throws {
        let decoded = DecodedRecording(
            try RecordingLoader.load(path: SharedRecordings.path("xorg-integration-tests/touchscreens/n4.events")))
        let first = try #require(decoded.fingerEvents.first)
        #expect(first.phase == .down)
        #expect(first.slot == 0)
        #expect((first.contact.x, first.contact.y) == (890, 576))
        #expect(first.contact.pressure == 55)
        #expect(first.contact.touchMajor == 5)
        #expect(first.time == EventTime(seconds: 75, microseconds: 280_138))
    }

    @Test("finger_crossing: a slot changes tracking id without a lift; the old touch ends, a new one starts")
    func fingerCrossing() throws {
        let path =
            "chromiumos-firmware_TouchMTB/converted-evemu/data/finger_crossing.top_right_to_bottom_left.slow.evemu"
        let decoded = DecodedRecording(try RecordingLoader.load(path: SharedRecordings.path(path)))
        #expect(decoded.diagnostics.trackingIDChangesWithoutLift == 1)
        let ups = decoded.fingerEvents.filter { $0.phase == .up }.count
        #expect(ups == decoded.fingers)  // every touch ends exactly once
    }

    @Test("a stream that starts mid-touch: updates before any tracking id make no finger")
    func midTouchStart() throws {
        let path = "xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.one-finger-up.events"
        let decoded = DecodedRecording(try RecordingLoader.load(path: SharedRecordings.path(path)))
        #expect(decoded.fingers == 0)
        #expect(decoded.diagnostics.orphanAxisUpdates > 0)
    }

    @Test("sibling descriptions are found by name prefix")
    func siblings() {
        #expect(
            RecordingLoader.siblingDescription(for: SharedRecordings.path("evemu/ntrig-xt2-1-tap.event"))?.hasSuffix(
                "evemu/ntrig-xt2.device") == true)
        #expect(
            RecordingLoader.siblingDescription(
                for: SharedRecordings.path(
                    "xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.tap.events"))?.hasSuffix(
                    "SynPS2-Synaptics-TouchPad-Clickpad.desc") == true)
        #expect(
            RecordingLoader.siblingDescription(
                for: SharedRecordings.path("chromiumos-autotest/touch_TouchscreenZoom/samus_touchscreen_164.13_zoom-in")
            ) == nil)
    }

    /// The getevent traces and their evemu conversions were made by different tools; both readers must agree.
    @Test("getevent originals and their evemu conversions give the same events")
    func geteventMatchesConversion() throws {
        let folder = "android-getevent-MonkeyHelper"
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedRecordings.path(folder + "/original"))
        #expect(names.count == 18)
        for name in names where name.hasSuffix(".txt") {
            let stem = String(name.dropLast(4))
            let original = try RecordingLoader.load(path: SharedRecordings.path("\(folder)/original/\(name)"))
            let converted = try RecordingLoader.load(
                path: SharedRecordings.path("\(folder)/converted-evemu/\(stem).events"))
            #expect(original.format == .getevent)
            #expect(original.events == converted.events, "\(name)")
        }
    }

    @Test("evtest originals and their evemu conversions give the same events")
    func evtestMatchesConversion() throws {
        for name in [
            "one_finger_without_slot_0", "2f_clicks", "drumroll_3", "finger_crossing.top_right_to_bottom_left.slow",
        ] {
            let original = try RecordingLoader.load(
                path: SharedRecordings.path("chromiumos-firmware_TouchMTB/original/data/\(name).dat"))
            let converted = try RecordingLoader.load(
                path: SharedRecordings.path("chromiumos-firmware_TouchMTB/converted-evemu/data/\(name).evemu"))
            #expect(original.format == .evtest)
            #expect(original.events == converted.events, "\(name)")
            #expect(
                original.description.absInfo[AbsCode.mtPositionX] == converted.description.absInfo[AbsCode.mtPositionX])
        }
    }
}
