import Foundation
import Testing
import TouchCalibration
import TouchClient
import TouchCore
import TouchJSON
import TouchPosix
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

private let tmuxPath = "/usr/bin/tmux"

/// `touchctl calibrate` as a person runs it: in a tmux pane of a known size, against a real `touchd run` replaying
/// taps at the targets the pane shows, through a mis-tap and its retry, to the rule written and used.
///
/// The taps come from a recording generated from a known matrix, at the targets of the pane's cell grid
/// (`CalibrationTargets.drawn`). touchd replays it on its clock once both this test's client and touchctl have
/// subscribed, one tap every `gap`: before each tap this test waits for its target to be drawn in the pane
/// (capture-pane) and fails if the tap comes first (touch lines carry CLOCK_MONOTONIC times, the clock this test
/// reads when it sees the target), so each tap answers the target on the screen.
@Suite(
    "touchctl calibrate in a terminal", .serialized,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)
            && FileManager.default.isExecutableFile(atPath: DaemonProcess.touchctl)
            && FileManager.default.isExecutableFile(atPath: tmuxPath), "touchd, touchctl and tmux are needed"))
struct CalibrateTerminalTests {
    static let columns = 80
    static let rows = 24
    static let gap = EventTime.Duration.milliseconds(1_500)

    struct Case: CustomStringConvertible, Sendable {
        var name: String
        /// The configuration before: other content whose bytes must survive.
        var config: String
        /// What the panel needs, raw device square to display.
        var whole: CalibrationMatrix
        /// What the rule must say: `whole` without the rule's rotation, which touchd applies after it.
        var written: CalibrationMatrix
        var description: String { name }
    }

    /// A slight shear, scale and offset, the panel's error.
    static let error = CalibrationMatrix(1.04, 0.02, -0.03, -0.015, 0.96, 0.025)

    static let cases = [
        Case(
            name: "an upright panel",
            config: """
                {
                  "grab": false,
                  "devices": [
                    {"match": {"name": "another panel"}, "rotate": 180}
                  ],
                  "clients": {"idleTimeoutSeconds": 60}
                }

                """,
            whole: error, written: error),
        // Mounted turned by 90° (the rule says so), with an old, wrong calibration: the raw positions are the
        // kernel's, so the old matrix plays no part, and the rule gets the error alone.
        Case(
            name: "a panel turned 90° with an old calibration",
            config: """
                {
                  "grab": false,
                  "devices": [
                    {"match": {"name": "touchd test touchscreen"}, "rotate": 90, "calibration": [0.5, 0, 0, 0, 0.5, 0]}
                  ]
                }

                """,
            whole: CalibrationMatrix.rotation(degrees: 90)!.after(error), written: error),
    ]

    @Test("five targets, a mis-tap asked again, the rule written beside the rest and used", arguments: cases)
    func calibrateInTmux(_ example: Case) throws {
        let directory = try scratchDirectory("touchd-calibrate-tmux")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let drawn = CalibrationTargets.drawn(columns: Self.columns, rows: Self.rows)
        // The fourth target is first missed by a quarter of the display, then hit.
        let missed = (x: drawn[3].target.x - 0.25, y: drawn[3].target.y)
        let taps = [drawn[0].target, drawn[1].target, drawn[2].target, missed, drawn[3].target, drawn[4].target]
        let expectedTargets = [0, 1, 2, 3, 3, 4]
        let recording = directory + "/taps.evemu"
        try CalibrationRecordings.evemu(
            matrix: example.whole, targets: taps, jitter: 1, gap: Self.gap, lead: .milliseconds(2_000)
        ).write(toFile: recording, atomically: true, encoding: .utf8)
        let raw = taps.map { tap -> (x: Double, y: Double) in
            let n = CalibrationRecordings.inverse(example.whole, tap)
            return (n.x * 4096, n.y * 4096)
        }

        let daemon = try DaemonProcess(
            arguments: ["--replay", recording, "--loop", "--replay-waits", "2"], config: example.config)
        defer { daemon.stop() }
        let config = daemon.directory + "/touchd.json"
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["touch"], fields: ["raw_x", "raw_y"]).ok)

        let tmux = try Tmux(directory: directory, columns: Self.columns, rows: Self.rows)
        defer { tmux.kill() }
        tmux.type(
            "stty -g > \(directory)/before; \(DaemonProcess.touchctl) --socket \(daemon.socket) calibrate "
                + "--config \(config); echo \"exit=$?\" > \(directory)/status; stty -g > \(directory)/after")

        for (index, target) in expectedTargets.enumerated() {
            let cell = drawn[target].cell
            let shown = tmux.waitFor(seconds: 10) { screen in
                screen.character(column: cell.column, row: cell.row) == "+"
                    && screen.lines[0].contains("target \(target + 1) of 5")
                    && (index != 4 || screen.text.contains("Mis-tap"))
            }
            let shownAt = MonotonicClock.nowMicroseconds()
            #expect(shown, "tap \(index + 1): target \(target + 1) not drawn at \(cell):\n\(tmux.capture().text)")
            let down = try #require(try Self.next(client, phase: "down"), "tap \(index + 1) never came")
            #expect(down.time > shownAt, "tap \(index + 1) came before its target was drawn")
            #expect(abs(down.rawX - raw[index].x) < 3 && abs(down.rawY - raw[index].y) < 3, "tap \(index + 1): \(down)")
            _ = try #require(try Self.next(client, phase: "up"))
        }

        // The fit, on the ordinary screen again, then the question.
        let asked = tmux.waitFor(seconds: 10) { $0.text.contains("[y/N]") }
        let report = tmux.capture().text
        #expect(asked, "\(report)")
        #expect(!report.contains("Mis-tap"), "the alternate screen is gone: \(report)")
        let printed = try #require(Self.matrix(in: report), "\(report)")
        for (value, expected) in zip(printed.values, example.written.values) {
            #expect(abs(value - expected) < 1e-3, "printed \(printed.values), expected \(example.written.values)")
        }
        tmux.type("y")
        #expect(tmux.waitFor(seconds: 10) { _ in FileManager.default.fileExists(atPath: directory + "/after") })
        #expect(try String(contentsOfFile: directory + "/status", encoding: .utf8) == "exit=0\n")
        let reloadedBy = MonotonicClock.nowMicroseconds()
        #expect(tmux.capture().text.contains("touchd reloaded it"), "\(tmux.capture().text)")
        #expect(
            try String(contentsOfFile: directory + "/before", encoding: .utf8)
                == String(contentsOfFile: directory + "/after", encoding: .utf8), "stty settings changed")
        #expect(tmux.format("#{alternate_on} #{cursor_flag}") == "0 1", "alternate screen off, cursor shown")

        // The file: every line of the old one still there, and the device's rule with the matrix.
        let written = try String(contentsOfFile: config, encoding: .utf8)
        let untouched = example.config.split(separator: "\n").filter { !$0.contains("touchd test touchscreen") }
        for line in untouched { #expect(written.contains(line), "lost '\(line)' in:\n\(written)") }
        let rule = try #require(Self.rule(in: written), "\(written)")
        for (value, expected) in zip(rule, example.written.values) {
            #expect(abs(value - expected) < 1e-3, "\(written)")
        }
        if example.config.contains("\"rotate\": 90") { #expect(written.contains("\"rotate\": 90")) }

        // The daemon uses it: a tap of a later pass lands on its target in the 1920×1080 scene.
        var landed: (x: Double, y: Double)?
        for _ in 0..<12 where landed == nil {
            guard let down = try Self.next(client, phase: "down") else { break }
            if abs(down.rawX - raw[0].x) < 3 && abs(down.rawY - raw[0].y) < 3 && down.time > reloadedBy {
                landed = (down.x, down.y)
            }
        }
        let tap = try #require(landed, "no later tap at the first target")
        let goal = (x: drawn[0].target.x * 1920, y: drawn[0].target.y * 1080)
        #expect(abs(tap.x - goal.x) < 3 && abs(tap.y - goal.y) < 3, "landed at \(tap), target \(goal)")
    }

    struct Touch {
        var x, y, rawX, rawY: Double
        /// CLOCK_MONOTONIC, µs.
        var time: Int64
    }

    /// The next touch line of `phase` within 10 s.
    static func next(_ client: TouchClient, phase: String) throws -> Touch? {
        while try Posix.waitUntilReadable(client.fileDescriptor, timeoutMilliseconds: 10_000),
            let message = try client.next()
        {
            guard case .touch(let touch) = message, touch.phase == phase,
                case .number(let rawX, _)? = touch.json["raw_x"], case .number(let rawY, _)? = touch.json["raw_y"]
            else { continue }
            return Touch(x: touch.x, y: touch.y, rawX: rawX, rawY: rawY, time: touch.timeMicroseconds)
        }
        return nil
    }

    /// The six numbers of the first printed `LIBINPUT_CALIBRATION_MATRIX="…"` (the one written), wherever the
    /// pane broke its line.
    static func matrix(in text: String) -> CalibrationMatrix? {
        let joined = text.replacingOccurrences(of: "\n", with: "")
        guard let start = joined.range(of: "LIBINPUT_CALIBRATION_MATRIX=\"")?.upperBound,
            let end = joined[start...].firstIndex(of: "\"")
        else { return nil }
        return CalibrationMatrix(udevProperty: String(joined[start..<end]))
    }

    /// The calibration of the rule matching the test device by name.
    static func rule(in text: String) -> [Double]? {
        guard let root = try? JSONParser.parse(text), case .array(let rules, _)? = root["devices"] else { return nil }
        for rule in rules.reversed() {
            guard case .string("touchd test touchscreen", _)? = rule["match"]?["name"],
                case .array(let numbers, _)? = rule["calibration"]
            else { continue }
            return numbers.compactMap { number -> Double? in
                guard case .number(let value, _) = number else { return nil }
                return value
            }
        }
        return nil
    }
}

/// A tmux server of the test's own (`-L`, no configuration file), one session of a fixed size running `sh`.
final class Tmux {
    let server: String
    let directory: String

    init(directory: String, columns: Int, rows: Int) throws {
        server = "touchd-calibrate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        self.directory = directory
        _ = run(["-f", "/dev/null", "new-session", "-d", "-s", "calibrate", "-x", "\(columns)", "-y", "\(rows)", "sh"])
        _ = run(["set-option", "-g", "status", "off"])
        _ = run(["resize-window", "-t", "calibrate", "-x", "\(columns)", "-y", "\(rows)"])
        let size = format("#{pane_width}x#{pane_height}")
        guard size == "\(columns)x\(rows)" else { throw TmuxError.size(size) }
    }

    enum TmuxError: Error { case size(String) }

    struct Screen {
        var lines: [String]
        var text: String { lines.joined(separator: "\n") }
        func character(column: Int, row: Int) -> Character? {
            guard row < lines.count else { return nil }
            let line = Array(lines[row])
            return column < line.count ? line[column] : nil
        }
    }

    func capture() -> Screen {
        Screen(
            lines: run(["capture-pane", "-p", "-J", "-t", "calibrate"]).split(
                separator: "\n", omittingEmptySubsequences: false
            ).map(String.init))
    }

    func format(_ text: String) -> String {
        run(["display-message", "-p", "-t", "calibrate", text]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Types `text` and Enter.
    func type(_ text: String) {
        _ = run(["send-keys", "-t", "calibrate", "-l", text])
        _ = run(["send-keys", "-t", "calibrate", "Enter"])
    }

    /// Whether `condition` holds of the pane within `seconds` (looked at every 20 ms).
    func waitFor(seconds: Double, _ condition: (Screen) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(capture()) { return true }
            usleep(20_000)
        }
        return false
    }

    func kill() { _ = run(["kill-server"]) }

    /// Through system(3), which waits for the tmux client alone: the server it starts keeps descriptors that
    /// Foundation's Process waits on.
    @discardableResult
    private func run(_ arguments: [String]) -> String {
        let output = directory + "/tmux.out"
        let words = ([tmuxPath, "-L", server] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        _ = system(words.joined(separator: " ") + " > '\(output)' 2>/dev/null < /dev/null")
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}
