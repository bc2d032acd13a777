import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles
import TouchTestKit
import TouchdCLI

/// The jitter filter on real recordings and on the command line.
@Suite("touchd replay --filter")
struct JitterReplayTests {
    static let ntrig = "evemu/ntrig-xt2-4-tap.event"  // with its sibling description ntrig-xt2.device

    struct Line {
        var type: String
        var finger: Int
        var x, y: Double
        var rawX, rawY: Double
    }

    func replay(_ relative: String, filter: JitterFilter) throws -> (lines: [Line], summary: ReplaySummary) {
        let recording = try RecordingLoader.load(path: SharedRecordings.path(relative))
        var settings = ReplayDriver.Settings()
        settings.filter = filter
        var bytes: [UInt8] = []
        let summary = try ReplayDriver(recording: recording, settings: settings).run { bytes += $0 }
        let lines = try String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { text -> Line? in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            guard let type = object["type"] as? String, type != "frame" else { return nil }
            return Line(
                type: type, finger: object["finger"] as? Int ?? -1, x: object["x"] as? Double ?? .nan,
                y: object["y"] as? Double ?? .nan, rawX: object["raw_x"] as? Double ?? .nan,
                rawY: object["raw_y"] as? Double ?? .nan)
        }
        return (lines, summary)
    }

    /// An N-Trig panel (protocol A, fuzz 75 and 78) with four fingers tapping. libinput reads it through mtdev,
    /// whose defuzz (fuzz 9600 / 250 = 38 and 7200 / 250 = 28) comes before libinput's hysteresis (margins 37.5 and
    /// 39); on a real kernel libinput reports none of the 18 moves (docs/decoding.md). Counted independently (a
    /// Python pass of mtdev's defuzz and libinput's ellipse over the `--filter off` positions): all 18 stay inside.
    @Test(
        "protocol A N-Trig taps: mtdev's defuzz then libinput's hysteresis, as libinput: none of the 18 moves is left",
        .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
    func ntrigTaps() throws {
        let off = try replay(Self.ntrig, filter: .off)
        let fuzz = try replay(Self.ntrig, filter: .standard)
        #expect(off.lines.filter { $0.type == "move" }.count == 18)
        #expect(fuzz.lines.filter { $0.type == "move" }.count == 0)
        #expect(fuzz.summary.diagnostics.movesSuppressedByFilter == 18)
        #expect(off.summary.diagnostics.movesSuppressedByFilter == 0)
        // Downs, ups and the fingers are untouched: the filter never drops or invents a touch.
        #expect(
            off.lines.filter { $0.type != "move" }.map(\.type) == fuzz.lines.filter { $0.type != "move" }.map(\.type))
        #expect(Set(off.lines.map(\.finger)) == Set(fuzz.lines.map(\.finger)))
        // mtdev's defuzz leaves a value within its fuzz of the kernel's, the hysteresis within its margin of that.
        for line in fuzz.lines {
            #expect(abs(line.x - line.rawX) <= 38 + 37.5 && abs(line.y - line.rawY) <= 28 + 39, "\(line)")
        }
        #expect(fuzz.summary.filter == "fuzz, mtdev's defuzz (fuzz 38 x 28), then margins 37.5 x 39.0 device units")
        // raw_x/raw_y are the kernel's: every filtered line's raw values are a line of the unfiltered output's.
        let kernel = Set(off.lines.map { "\($0.finger) \($0.rawX) \($0.rawY)" })
        #expect(fuzz.lines.allSatisfy { kernel.contains("\($0.finger) \($0.rawX) \($0.rawY)") })
    }

    /// The Nexus 4 recording (protocol B, no fuzz declared: mtdev's 1535/250 = 6 and 2559/250 = 10, margins 3 and
    /// 5): the 1€ filter and the hysteresis never drop a touch, and off equals the unfiltered positions.
    @Test(
        "n4: every filter keeps the touches; off reports the kernel's positions; fuzz stays within its margins",
        .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
    func nexus4() throws {
        let path = "xorg-integration-tests/touchscreens/n4.events"
        let off = try replay(path, filter: .off)
        #expect(off.lines.allSatisfy { $0.x == $0.rawX && $0.y == $0.rawY })
        for filter in [JitterFilter.standard, .oneEuro(.standard)] {
            let filtered = try replay(path, filter: filter)
            #expect(filtered.summary.fingers == 12 && filtered.summary.phaseCounts[.down] == 12)
            #expect(filtered.summary.phaseCounts[.up] == 12)
            #expect(
                filtered.lines.filter { $0.type == "move" }.count + filtered.summary.diagnostics.movesSuppressedByFilter
                    == off.lines.filter { $0.type == "move" }.count)
        }
        // No fuzz declared: margins 1535 / 250 = 6.14 and 2559 / 250 = 10.236, and a move is never further off
        // (but for the output's rounding to hundredths).
        let fuzz = try replay(path, filter: .standard)
        #expect(fuzz.lines.allSatisfy { abs($0.x - $0.rawX) <= 6.145 && abs($0.y - $0.rawY) <= 10.241 })
        #expect(
            fuzz.summary.filter == "fuzz, margins 6.14 x 10.236 device units, released on motion (no fuzz declared)")
    }

    @Test(
        "the command line: --filter and --filter-params are checked, named in --help, and the summary names the filter")
    func commandLine() throws {
        let demo = SharedRecordings.repositoryRoot + "/config/demo/panel.evemu"
        let help = try runTouchd(["replay", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--filter off|fuzz|one-euro"))
        #expect(help.stdout.contains("--filter-params LIST"))
        let bad = try runTouchd(["replay", demo, "--filter", "kalman"])
        #expect(bad.status == 64 && bad.stderr.contains("--filter 'kalman': expected one of off, fuzz, one-euro"))
        let badParams = try runTouchd(["replay", demo, "--filter", "fuzz", "--filter-params", "beta=1"])
        #expect(badParams.status == 64)
        #expect(badParams.stderr.contains("'beta' is not a parameter of the fuzz filter (it takes fuzz)"))
        let oneEuro = try runTouchd(["replay", demo, "--filter", "one-euro", "--filter-params", "minCutoff=2,beta=0"])
        #expect(oneEuro.status == 0)
        #expect(oneEuro.stderr.contains("jitter filter: one-euro (minCutoff 2.0 Hz, beta 0.0, dCutoff 5.0 Hz)"))
        let standard = try runTouchd(["replay", demo])
        #expect(
            standard.stderr.contains(
                "jitter filter: fuzz, margins 16.38 x 16.38 device units, released on motion (no fuzz declared)"))
        let off = try runTouchd(["replay", demo, "--filter", "off"])
        #expect(off.stderr.contains("jitter filter: off"))
        #expect(!off.stderr.contains("moves suppressed"))
    }
}
