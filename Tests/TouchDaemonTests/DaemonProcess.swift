import Foundation
import TouchJSON
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A real `touchd run` in a temporary directory, for tests that talk to it over its real socket.
final class DaemonProcess {
    static let root = SharedRecordings.repositoryRoot
    static let touchd = root + "/.build/debug/touchd"
    static let touchctl = root + "/.build/debug/touchctl"
    static let touchdActions = root + "/.build/debug/touchd-actions"
    /// touchd and touchd-actions are both built: the suites that run them together need both.
    static let actionsBuilt =
        FileManager.default.isExecutableFile(atPath: touchd)
        && FileManager.default.isExecutableFile(atPath: touchdActions)

    let directory: String
    let socket: String
    let process = Process()
    let logPath: String

    /// `socket`: where it listens (default: in its own directory); `launcher`: a command that runs touchd
    /// (setpriv, unshare …), given touchd's path and arguments after its own.
    init(arguments: [String], config: String? = nil, socket socketPath: String? = nil, launcher: [String] = [])
        throws
    {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "touchd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)  // so an unprivileged client can reach the socket
        socket = socketPath ?? directory + "/touchd.sock"
        logPath = directory + "/daemon.log"
        var all = ["run", "--socket", socket, "--log-level", "debug"]
        if let config {
            try config.write(toFile: directory + "/touchd.json", atomically: true, encoding: .utf8)
            all += ["--config", directory + "/touchd.json"]
        }
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + [Self.touchd] + all + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Self.touchd)
            process.arguments = all + arguments
        }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 where !log.contains("listening on") && process.isRunning { usleep(20_000) }
        guard log.contains("listening on") else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            throw DaemonTestError.notStarted(log)
        }
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Whether the log comes to hold `text` within `seconds`: a line the daemon logs after answering the client
    /// (a refusal's goodbye goes out first) may not be written yet when the client has its answer.
    func logWillContain(_ text: String, seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !log.contains(text) {
            if Date() > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    var residentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    func stop() {
        if process.isRunning {
            signal(SIGTERM)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    /// Runs a helper program (a client) to completion (killed after `timeout`) and returns its output.
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 30) throws -> (
        status: Int32, out: String, err: String
    ) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "touchd-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        let child = try start(executable, arguments, stdout: scratch + ".out", stderr: scratch + ".err")
        let deadline = Date().addingTimeInterval(timeout)
        while child.isRunning && Date() < deadline { usleep(10_000) }
        if child.isRunning { child.terminate() }
        child.waitUntilExit()
        let out = (try? String(contentsOfFile: scratch + ".out", encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: scratch + ".err", encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: scratch + ".out")
        try? FileManager.default.removeItem(atPath: scratch + ".err")
        return (child.terminationStatus, out, err)
    }

    /// Starts a helper program and returns it running.
    static func start(_ executable: String, _ arguments: [String], stdout: String, stderr: String? = nil) throws
        -> Process
    {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments
        _ = FileManager.default.createFile(atPath: stdout, contents: nil)
        child.standardOutput = FileHandle(forWritingAtPath: stdout)
        if let stderr {
            _ = FileManager.default.createFile(atPath: stderr, contents: nil)
            child.standardError = FileHandle(forWritingAtPath: stderr)
        } else {
            child.standardError = FileHandle.nullDevice
        }
        // A child inherits the spawning thread's signal mask, and the test runner's worker threads block nearly
        // every signal: a helper that does not unblock them itself (a Python peer) would ignore `terminate()` and
        // outlive the run. It is spawned with nothing blocked; the thread's own mask is put back at once.
        var nothing = sigset_t()
        var previous = sigset_t()
        sigemptyset(&nothing)
        pthread_sigmask(SIG_SETMASK, &nothing, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try child.run()
        return child
    }
}

enum DaemonTestError: Error { case notStarted(String) }

/// A fresh directory of a test's own under the temporary directory, with `mode`; the caller removes it.
func scratchDirectory(_ prefix: String, mode: mode_t = 0o755) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chmod(path, mode)
    return path
}

/// Event lines without what legitimately differs between runs (times, the device's name): everything else —
/// order, fingers, regions, positions, gestures — must be equal.
func normalized(_ lines: [Substring]) -> [String] {
    lines.compactMap { line -> String? in
        guard let value = try? JSONParser.parse(String(line)), case .object(let members, _) = value else { return nil }
        if case .string(let type, _)? = value["type"],
            ["hello", "reply", "scene-changed", "device-added", "goodbye"].contains(type)
        {
            return nil
        }
        return members.filter { $0.key != "time_us" && $0.key != "device" }
            .map { "\($0.key)=\(describe($0.value))" }.joined(separator: " ")
    }
}

private func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag, _): "\(flag)"
    case .number(let number, _): "\(number)"
    case .string(let text, _): text
    case .array(let items, _): "[" + items.map(describe).joined(separator: ",") + "]"
    case .object(let members, _): "{" + members.map { "\($0.key)=\(describe($0.value))" }.joined(separator: ",") + "}"
    }
}
