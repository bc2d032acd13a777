import Foundation
import Testing
import TouchClient
import TouchJSON
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// touchd-actions against a real daemon replaying a real recording: the right commands in the right
/// order, a failing and a hanging command that do not stall the rest, a bad file refused, and its regions gone
/// when it stops, also when it is killed.
///
/// n4.events (Nexus 4, 1536 × 2560 units, shown 1:1 here), tallied from the file's own lines: touch 1 goes alone
/// from (890, 576) to (394, 2394) in 1.27 s: 1818 units down and 496 left, 15° off the vertical, so a one-finger
/// swipe down for a swipe allowed 2 s. Then three times two or more fingers are down together: three pinches.
/// The first pinch's fingers go from (494, 640) and (1128, 653), 634.1 apart, to (429, 663) and (1073, 677),
/// 644.2 apart (scale 1.0158); the second's from (1305, 208) and (431, 1973), 1969.6 apart, to (1086, 979) and
/// (329, 1358), 846.6 apart (0.4298).
@Suite(
    "touchd-actions against the daemon", .serialized, .actionsBuilt,
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
final class ActionsProcessTests: ActionsSuite {
    static let recording = SharedRecordings.path("xorg-integration-tests/touchscreens/n4.events")
    let directory: String

    init() throws {
        directory = try scratchDirectory("touchd-actions-test")
        try #"{"size": [1536, 2560], "regions": []}"#.write(
            toFile: directory + "/scene.json", atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var marker: String { directory + "/marker" }

    /// The daemon on the recording (or idle), with the empty 1536 × 2560 scene.
    func daemon(replay: Bool = true, socket: String? = nil) throws -> DaemonProcess {
        let arguments = replay ? ["--replay", Self.recording, "--replay-waits", "1", "--speed", "2"] : []
        return try DaemonProcess(
            arguments: arguments, config: #"{"scene": "\#(directory)/scene.json"}"#, socket: socket)
    }

    /// Writes the actions file and starts touchd-actions on it; its stderr goes to `log`.
    func actions(_ json: String, socket: String, log: String) throws -> Process {
        try json.write(toFile: directory + "/actions.json", atomically: true, encoding: .utf8)
        return try startActions(directory + "/actions.json", socket: socket, log: log)
    }

    /// The full-screen region with the gestures the rules want.
    static let screenRegion = """
        {"id": "screen", "frame": [0, 0, 1536, 2560],
         "gestures": [{"type": "swipe", "durationMs": 2000}, "pinch"]}
        """

    func regionIDs(_ socket: String) throws -> [String] {
        let client = try TouchClient(path: socket, retry: .init(attempts: 10))
        let reply = try client.request(op: "get-scene")
        guard case .array(let regions, _)? = reply.json["scene"]?["regions"] else { return [] }
        return regions.compactMap { if case .string(let id, _)? = $0["id"] { id } else { nil } }
    }

    func waitForExit(_ process: Process, seconds: Double = 10) -> Bool {
        waitFor(seconds: seconds) { !process.isRunning }
    }

    @Test("the recording's swipe and pinches run their commands in order; exit 3 and a hang stall nothing")
    func commandsInOrder() throws {
        let daemon = try daemon()
        defer { daemon.stop() }
        let log = directory + "/actions.log"
        let noShell = directory + "/no shell: $HOME;`x`"
        let process = try actions(
            """
            {
              "regions": [\(Self.screenRegion)],
              "commands": {"maxRunning": 4, "timeoutMs": 5000, "killAfterMs": 300},
              "rules": [
                {"region": "screen", "gesture": "swipe", "direction": "down", "shell": true,
                 "run": "echo \\"$TOUCHD_GESTURE $TOUCHD_DIRECTION $TOUCHD_FINGERS\\" >> '\(marker)'"},
                {"region": "screen", "gesture": "pinch", "state": "began", "shell": true, "run": "exit 3"},
                {"region": "screen", "gesture": "pinch", "state": "began", "shell": true, "timeoutMs": 1000,
                 "run": "trap '' TERM; sleep 30"},
                {"region": "screen", "gesture": "pinch",
                 "run": ["/bin/sh", "-c", "echo \\"$TOUCHD_GESTURE $TOUCHD_STATE $TOUCHD_SCALE\\" >> \\"$1\\"", "sh",
                         "\(marker)"]},
                {"gesture": "swipe", "run": ["/usr/bin/touch", "\(noShell)"]}
              ]
            }
            """, socket: daemon.socket, log: log)
        defer { if process.isRunning { process.terminate() } }

        #expect(waitFor(seconds: 30) { lines(marker).count >= 4 })
        let written = lines(marker)
        #expect(written.count == 4, "\(written)")
        #expect(written.first == "swipe down 1")
        #expect(
            written.dropFirst().map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                == Array(repeating: "pinch ended", count: 3))
        let scales = written.dropFirst().compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        #expect(scales.count == 3)
        if scales.count == 3 {
            #expect(abs(scales[0] - 644.2 / 634.1) < 0.005)
            #expect(abs(scales[1] - 846.6 / 1969.6) < 0.005)
            #expect(scales[2] < 1)
        }
        // The argv rule ran without a shell: the file has exactly the name written, `$HOME;` and backquotes included.
        #expect(FileManager.default.fileExists(atPath: noShell))

        // Every hanging command is killed: SIGTERM at 1 s (ignored), SIGKILL 0.3 s later.
        #expect(waitFor(seconds: 10) { self.lines(log).filter { $0.contains("killed by signal 9") }.count == 3 })
        let logLines = lines(log)
        #expect(logLines.filter { $0.contains("rules[1]") && $0.hasSuffix("exit status 3") }.count == 3)
        #expect(logLines.filter { $0.contains("rules[2]") && $0.contains(": SIGTERM") }.count == 3)
        #expect(logLines.filter { $0.contains("rules[2]") && $0.contains(": SIGKILL") }.count == 3)
        // The first pinch's end ran while the first hang was still running: it was not held up behind it.
        let firstEnd = logLines.firstIndex { $0.contains("rules[3]") && $0.contains("started pid") }
        let firstKill = logLines.firstIndex { $0.contains("rules[2]") && $0.contains(": SIGKILL") }
        #expect(firstEnd != nil && firstKill != nil && firstEnd! < firstKill!, "\(logLines)")
        // Every command started was reaped.
        let started = logLines.filter { $0.contains("started pid") }.count
        #expect(started == 1 + 3 + 3 + 3 + 1)
        #expect(logLines.filter { $0.contains(" ended after ") }.count == started)

        #expect(try regionIDs(daemon.socket) == ["screen"])
        kill(process.processIdentifier, SIGTERM)
        #expect(waitForExit(process))
        #expect(process.terminationStatus == 0)
        #expect(lines(log).last?.hasSuffix("stopping (SIGTERM): 1 region(s) removed") == true)
        #expect(try regionIDs(daemon.socket) == [])
    }

    @Test("killed with SIGKILL, touchd-actions leaves no region: touchd removes them when its connection closes")
    func regionsGoOnKill() throws {
        let daemon = try daemon(replay: false)
        defer { daemon.stop() }
        let log = directory + "/actions.log"
        let process = try actions(
            #"{"regions": [\#(Self.screenRegion)], "rules": [{"gesture": "pinch", "run": ["true"]}]}"#,
            socket: daemon.socket, log: log)
        defer { if process.isRunning { process.terminate() } }
        #expect(waitFor(seconds: 10) { self.lines(log).contains { $0.contains("connected to touchd") } })
        #expect(try regionIDs(daemon.socket) == ["screen"])
        // A reload of the scene file replaces the scene whole: touchd-actions sees the change and adds its region again.
        daemon.signal(SIGHUP)
        #expect(waitFor(seconds: 10) { self.lines(log).contains { $0.contains("1 region(s) added again") } })
        #expect(try regionIDs(daemon.socket) == ["screen"])
        kill(process.processIdentifier, SIGKILL)
        #expect(waitForExit(process))
        #expect(waitFor(seconds: 5) { (try? self.regionIDs(daemon.socket)) == [] })
        #expect(daemon.log.contains("closed (its transient regions screen)"))
    }

    /// The stop must end within the unit's TimeoutStopSec=5 whatever touchd does: removals that each waited 2 s for
    /// a reply, one region after another, before the commands were told, would pass it with three regions.
    @Test("SIGTERM while touchd does not answer: the stop takes one reply's wait, not one per region")
    func stopWhileTouchdHangs() throws {
        let daemon = try daemon(replay: false)
        defer {
            daemon.signal(SIGCONT)
            daemon.stop()
        }
        let log = directory + "/actions.log"
        let regions = (0..<3).map { #"{"id": "r\#($0)", "frame": [\#($0 * 100), 0, 50, 50], "gestures": ["tap"]}"# }
        let process = try actions(
            #"{"regions": [\#(regions.joined(separator: ","))], "rules": [{"gesture": "tap", "run": ["true"]}]}"#,
            socket: daemon.socket, log: log)
        defer { if process.isRunning { process.terminate() } }
        #expect(waitFor(seconds: 10) { self.lines(log).contains { $0.contains("connected to touchd") } })
        daemon.signal(SIGSTOP)
        let start = Date()
        kill(process.processIdentifier, SIGTERM)
        #expect(waitForExit(process))
        let took = Date().timeIntervalSince(start)
        #expect(took < 4, "the stop took \(took) s")
        #expect(process.terminationStatus == 0)
        #expect(lines(log).last?.hasSuffix("stopping (SIGTERM): 0 region(s) removed") == true)
    }

    /// Outside systemd no cgroup ends what touchd-actions started: it waits for its commands when it stops and
    /// kills the groups of those that ignore SIGTERM, once `killAfterMs` has passed.
    @Test("SIGTERM: a running command that ignores SIGTERM is killed after killAfterMs, its group with it")
    func stopKillsStubbornCommands() throws {
        let daemon = try daemon()
        defer { daemon.stop() }
        let log = directory + "/actions.log"
        let process = try actions(
            """
            {"regions": [\(Self.screenRegion)], "commands": {"timeoutMs": 0, "killAfterMs": 400},
             "rules": [{"region": "screen", "gesture": "swipe", "shell": true,
                        "run": "trap '' TERM; echo started >> '\(marker)'; sleep 30; sleep 30"}]}
            """, socket: daemon.socket, log: log)
        defer { if process.isRunning { process.terminate() } }
        #expect(waitFor(seconds: 30) { !lines(marker).isEmpty })
        let started = lines(log).compactMap { line -> Int32? in
            guard let range = line.range(of: "started pid ") else { return nil }
            return Int32(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(started.count == 1, "\(lines(log))")
        let leader = try #require(started.first)
        #expect(Self.liveMembers(ofGroup: leader) >= 2)  // the shell and its sleep
        // The command has the descriptors it was given (stdin /dev/null, stdout, stderr) and none of touchd-actions'
        // others, whatever its parent left open (this test's own pipes among them).
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(leader)/fd")
        #expect(descriptors.sorted() == ["0", "1", "2"])

        let stop = Date()
        kill(process.processIdentifier, SIGTERM)
        #expect(waitForExit(process))
        let took = Date().timeIntervalSince(stop)
        #expect(process.terminationStatus == 0)
        #expect(took >= 0.35 && took < 3, "the stop took \(took) s")
        #expect(Self.liveMembers(ofGroup: leader) == 0, "the command's group outlived touchd-actions")
        let logLines = lines(log)
        #expect(logLines.contains { $0.contains("pid \(leader) gets SIGTERM") })
        #expect(logLines.contains { $0.contains("pid \(leader) still running") && $0.hasSuffix(": SIGKILL") })
        #expect(logLines.contains { $0.contains("pid \(leader) ended after") && $0.contains("signal 9") })
    }

    /// A parent may start touchd-actions with SIGCHLD ignored (kept across exec): the kernel then reaps the commands
    /// itself, no SIGCHLD arrives and waitpid finds none, so an ended command stayed "running" for good (its slot
    /// never freed, its long-gone group signalled at the timeout and the stop, the stop waiting killAfterMs + 1 s).
    @Test("started with SIGCHLD ignored, touchd-actions still sees its commands end")
    func inheritedIgnoredChildSignal() throws {
        let daemon = try daemon()
        defer { daemon.stop() }
        let log = directory + "/actions.log"
        try """
        {"regions": [\(Self.screenRegion)], "commands": {"timeoutMs": 0, "killAfterMs": 400},
         "rules": [{"region": "screen", "gesture": "swipe", "shell": true, "run": "echo ran >> '\(marker)'"}]}
        """.write(toFile: directory + "/actions.json", atomically: true, encoding: .utf8)
        // env(1) of coreutils 9 sets the disposition and execs: the process is touchd-actions itself.
        let process = try startActions(
            directory + "/actions.json", socket: daemon.socket, log: log, environment: ["--ignore-signal=CHLD"])
        defer { if process.isRunning { process.terminate() } }
        #expect(waitFor(seconds: 30) { !lines(marker).isEmpty })
        #expect(
            waitFor(seconds: 5) { lines(log).contains { $0.contains("ended after") && $0.hasSuffix("exit status 0") } },
            "\(lines(log))")
        kill(process.processIdentifier, SIGTERM)
        #expect(waitForExit(process))
        #expect(process.terminationStatus == 0)
        #expect(!lines(log).contains { $0.contains("SIGKILL") || $0.contains("still running") }, "\(lines(log))")
    }

    /// Processes of a process group that have not ended (zombies, reaped by no one here, are not counted).
    static func liveMembers(ofGroup group: Int32) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard entry.allSatisfy(\.isNumber),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // After "pid (comm) ": state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && Int32(fields[2]) == group
        }.count
    }

    @Test("when touchd restarts, touchd-actions connects again and adds its regions again")
    func reconnects() throws {
        let socket = directory + "/touchd.sock"
        let first = try daemon(replay: false, socket: socket)
        let log = directory + "/actions.log"
        let process = try actions(
            #"{"regions": [\#(Self.screenRegion)], "rules": [{"gesture": "pinch", "run": ["true"]}]}"#,
            socket: socket, log: log)
        defer { if process.isRunning { process.terminate() } }
        #expect(waitFor(seconds: 10) { (try? self.regionIDs(socket)) == ["screen"] })
        first.stop()
        #expect(waitFor(seconds: 5) { self.lines(log).contains { $0.contains("lost touchd") } })
        let second = try daemon(replay: false, socket: socket)
        defer { second.stop() }
        #expect(waitFor(seconds: 15) { (try? self.regionIDs(socket)) == ["screen"] })
        #expect(lines(log).filter { $0.contains("connected to touchd") }.count == 2)
        #expect(process.isRunning)
    }

    /// sumo_touchscreen_22b90051_scroll-left, from its lines: one finger goes down at the right edge (x 999.97 of
    /// 1000 once mapped) and travels 686 of 1000 leftwards in 0.40 s: a swipe left from the right edge, shown on the
    /// demo scene's 1280 × 800.
    @Test("the README's recipe, its actions file as printed there: a real swipe in from the right edge runs it")
    func readmeRecipe() throws {
        let readme = try String(contentsOfFile: DaemonProcess.root + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "## Gestures to commands"))
        let start = try #require(readme.range(of: "<<'EOF'\n", range: section.upperBound..<readme.endIndex))
        // The here-document's end stands alone at the start of its line, as the shell needs it when copied.
        let end = try #require(readme.range(of: "\nEOF\n", range: start.upperBound..<readme.endIndex))
        let json = String(readme[start.upperBound..<end.lowerBound])
        let daemon = try DaemonProcess(arguments: [
            "--scene", DaemonProcess.root + "/config/demo/scene.json", "--replay",
            SharedRecordings.path(
                "chromiumos-autotest/touch_TouchscreenScroll/sumo_touchscreen_22b90051_scroll-left"),
            "--replay-waits", "1",
        ])
        defer { daemon.stop() }
        try json.write(toFile: directory + "/actions.json", atomically: true, encoding: .utf8)
        let process = try startActions(
            directory + "/actions.json", socket: daemon.socket, log: directory + "/actions.log",
            environment: ["XDG_RUNTIME_DIR=" + directory])
        defer { if process.isRunning { process.terminate() } }
        let swipes = directory + "/touchd-swipes"
        #expect(waitFor(seconds: 15) { !self.lines(swipes).isEmpty })
        let written = lines(swipes)
        #expect(written.count == 1)
        #expect(written.first?.hasPrefix("swiped left at y=") == true, "\(written)")
    }

    @Test(
        "a bad actions file is refused with its file, line and JSON path, and exit status 78",
        arguments: [
            (
                "{\"rules\": [\n  {\"gesture\": \"swipe\", \"run\": []}]}",
                ":2: rules[0].run: must not be empty: give the program to run"
            ),
            (
                "{\"rules\": [\n  {\"gesture\": \"flick\", \"run\": [\"true\"]}]}",
                ":2: rules[0].gesture: unknown gesture 'flick'"
            ),
            (
                "{\"rules\": [{\"gesture\": \"tap\", \"run\": [\"true\"],\n \"timeoutMs\": -1}]}",
                ":2: rules[0].timeoutMs: "
            ),
        ])
    func badFile(json: String, expected: String) throws {
        let path = directory + "/bad.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try DaemonProcess.run(
            DaemonProcess.touchdActions, ["--actions", path, "--socket", directory + "/none.sock"])
        #expect(result.status == 78)
        #expect(result.err.hasPrefix("touchd-actions: " + path + expected), "\(result.err)")
    }

    @Test(
        "a missing actions file, a directory, or unknown arguments are refused without a hang, with sysexits statuses")
    func unusable() throws {
        let missing = try DaemonProcess.run(DaemonProcess.touchdActions, ["--actions", directory + "/missing.json"])
        #expect(missing.status == 66)  // EX_NOINPUT
        #expect(missing.err.contains("missing.json: cannot open: No such file or directory"))
        let folder = try DaemonProcess.run(DaemonProcess.touchdActions, ["--actions", directory])
        #expect(folder.status == 66)
        let unknown = try DaemonProcess.run(DaemonProcess.touchdActions, ["--frobnicate"])
        #expect(unknown.status == 64)  // EX_USAGE
        #expect(unknown.err.contains("unknown argument '--frobnicate'"))
    }
}

/// The shipped user unit: `systemd-analyze verify --user` accepts it (with ExecStart pointed at this build's binary).
@Suite(
    "touchd-actions user unit",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") && DaemonProcess.actionsBuilt)
)
struct ActionsUnitTests {
    @Test("systemd-analyze verify --user accepts systemd/touchd-actions.service")
    func verify() throws {
        let directory = try scratchDirectory("touchd-actions-unit", mode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let unit = try String(
            contentsOfFile: DaemonProcess.root + "/systemd/touchd-actions.service", encoding: .utf8
        ).replacingOccurrences(of: "/usr/bin/touchd-actions", with: DaemonProcess.touchdActions)
        #expect(unit.contains("ExecStart=\(DaemonProcess.touchdActions) --actions %E/touchd/actions.json"))
        try unit.write(toFile: directory + "/touchd-actions.service", atomically: true, encoding: .utf8)
        // A user manager's lookup needs a runtime directory, which a test run as root under CI has not.
        let result = try DaemonProcess.run(
            "/usr/bin/env",
            [
                "XDG_RUNTIME_DIR=" + directory, "/usr/bin/systemd-analyze", "verify", "--user", "--man=no",
                directory + "/touchd-actions.service",
            ])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(!result.err.contains("touchd-actions.service:"), "\(result.err)")
    }
}
