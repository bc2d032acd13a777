import Foundation
import TouchClient
import TouchJSON
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A real debug touchd and a real touchd-actions in a scratch directory, for tests of what happens to processes
/// (a command's tree, regions left in the scene): the in-process pool cannot show that, and reaping with
/// waitpid(-1) inside the test process would take other tests' children.
final class ActionsBench {
    static let root = SharedRecordings.repositoryRoot
    static let touchd = root + "/.build/debug/touchd"
    static let touchdActions = root + "/.build/debug/touchd-actions"
    static let built =
        FileManager.default.isExecutableFile(atPath: touchd)
        && FileManager.default.isExecutableFile(atPath: touchdActions)
    /// One finger swiping left in from the right edge, 0.40 s (README's recipe): looped, a swipe every 0.2 s at
    /// twice its speed.
    static let swipeRecording = SharedRecordings.path(
        "chromiumos-autotest/touch_TouchscreenScroll/sumo_touchscreen_22b90051_scroll-left")
    /// The full 1280 × 800 scene, with the swipe the recording makes.
    static let screenRegion = #"{"id": "screen", "frame": [0, 0, 1280, 800], "gestures": ["swipe"]}"#

    let directory: String
    var socket: String { directory + "/touchd.sock" }
    var actionsLog: String { directory + "/actions.log" }
    var marker: String { directory + "/marker" }
    private(set) var daemon: Process?
    private(set) var actions: Process?

    init() throws {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "touchd-actions-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try #"{"size": [1280, 800], "regions": []}"#.write(
            toFile: directory + "/scene.json", atomically: true, encoding: .utf8)
        try #"{"scene": "\#(directory)/scene.json"}"#.write(
            toFile: directory + "/touchd.json", atomically: true, encoding: .utf8)
    }

    deinit {
        for process in [actions, daemon].compactMap({ $0 }) where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// touchd, idle or replaying the swipe in a loop once a client subscribes; returns when it listens.
    func startDaemon(swiping: Bool) throws {
        var arguments = ["run", "--socket", socket, "--config", directory + "/touchd.json", "--log-level", "debug"]
        if swiping { arguments += ["--replay", Self.swipeRecording, "--replay-waits", "1", "--loop", "--speed", "2"] }
        let process = try Self.start(Self.touchd, arguments, stderr: directory + "/daemon.log")
        daemon = process
        guard waitFor(seconds: 5, { self.text(self.directory + "/daemon.log").contains("listening on") }) else {
            throw BenchError.daemonNotListening(text(directory + "/daemon.log"))
        }
    }

    /// touchd-actions on `json`, its stderr in `actionsLog`.
    func startActions(_ json: String) throws {
        try json.write(toFile: directory + "/actions.json", atomically: true, encoding: .utf8)
        actions = try Self.start(
            Self.touchdActions,
            ["--actions", directory + "/actions.json", "--socket", socket, "--log-level", "debug"],
            stderr: actionsLog)
    }

    /// SIGTERM to touchd-actions, and its exit status once it has exited (nil: still running after `seconds`).
    func stopActions(seconds: Double = 5) -> Int32? {
        guard let actions else { return nil }
        kill(actions.processIdentifier, SIGTERM)
        guard waitFor(seconds: seconds, { !actions.isRunning }) else { return nil }
        return actions.terminationStatus
    }

    func lines(_ path: String) -> [String] { text(path).split(separator: "\n").map(String.init) }

    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The pids the commands wrote to `marker`, one a line.
    var markedPids: [Int32] { lines(marker).compactMap { Int32($0) } }

    /// The regions of touchd's scene, by id, with their frames.
    func sceneRegions() throws -> [String: [Double]] {
        let client = try TouchClient(path: socket, retry: .init(attempts: 10))
        let reply = try client.request(op: "get-scene")
        guard case .array(let regions, _)? = reply.json["scene"]?["regions"] else { return [:] }
        var result: [String: [Double]] = [:]
        for region in regions {
            guard case .string(let id, _)? = region["id"] else { continue }
            var frame: [Double] = []
            if case .array(let values, _)? = region["frame"] {
                for value in values { if case .number(let number, _) = value { frame.append(number) } }
            }
            result[id] = frame
        }
        return result
    }

    /// Whether `pid` is a live process: in /proc and not a zombie (a zombie has ended; only its entry is left).
    static func isLive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    /// Waits (up to `seconds`) until `condition` holds.
    @discardableResult
    func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() && Date() < deadline { usleep(20_000) }
        return condition()
    }

    private static func start(_ executable: String, _ arguments: [String], stderr: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: stderr, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderr)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }
}

enum BenchError: Error { case daemonNotListening(String) }
