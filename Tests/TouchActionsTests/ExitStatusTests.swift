import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// touchd-actions' exit statuses are sysexits(3)'s (EX_USAGE 64, EX_NOINPUT 66, EX_CONFIG 78, …), and `--help`
/// names each one it uses.
@Suite(
    "touchd-actions: exit statuses",
    .enabled(if: ActionsBench.built, "touchd and touchd-actions must be built first (swift build)"))
struct ExitStatusTests {
    /// Runs touchd-actions to its end (a few seconds at most) and returns its status and output.
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let bench = try ActionsBench()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ActionsBench.touchdActions)
        process.arguments = arguments
        let out = bench.directory + "/out"
        let err = bench.directory + "/err"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        if !bench.waitFor(seconds: 5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, bench.text(out), bench.text(err))
    }

    @Test("--help lists 0, 64, 66, 69, 71, 77 and 78, and exits 0")
    func helpListsStatuses() throws {
        let result = try Self.run(["--help"])
        #expect(result.status == 0)
        let text = result.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (status, meaning) in [
            ("0", "stopped by SIGTERM"), ("64", "a usage error"), ("66", "the actions file is missing"),
            ("69", "touchd refused the event subscription"), ("71", "a system call failed"),
            ("77", "touchd does not let this user change the scene"), ("78", "the actions file is invalid"),
        ] {
            #expect(text.contains("\(status) \(meaning)"), "\(result.out)")
        }
    }

    @Test("an option without its value and an unknown log level are usage errors: 64")
    func usageErrors() throws {
        #expect(try Self.run(["--socket"]).status == 64)
        let level = try Self.run(["--log-level", "loud\u{1b}[2J"])
        #expect(level.status == 64)
        // The terminal's escape is shown, not sent.
        #expect(level.err.contains("unknown log level 'loud\\u{1b}[2J'"), "\(level.err)")
    }

    @Test("an actions file that is a directory is no input (66); one that is invalid is a configuration error (78)")
    func fileStatuses() throws {
        let bench = try ActionsBench()
        #expect(try Self.run(["--actions", bench.directory, "--check"]).status == 66)
        try #"{"rules": []}"#.write(toFile: bench.directory + "/bad.json", atomically: true, encoding: .utf8)
        #expect(try Self.run(["--actions", bench.directory + "/bad.json", "--check"]).status == 78)
    }
}
