import Foundation
import Testing
import TouchCore
import TouchGestures
import TouchJSON
import TouchScene
import TouchTestKit

@testable import TouchdCLI

@Suite(
    "touchd's exit statuses and error lines",
    .enabled(if: FileManager.default.isExecutableFile(atPath: touchdBinary), "touchd must be built first"))
struct ExitStatusTests {
    static let demo = SharedRecordings.repositoryRoot + "/config/demo/panel.evemu"

    @Test(
        "sysexits: 66 a missing recording, 64 usage, 78 a bad configuration, which touchd.service does not restart on")
    func statuses() throws {
        #expect(try runTouchd(["replay", "/nonexistent-touchd/x.evemu"]).status == 66)
        #expect(try runTouchd(["describe", "/nonexistent-touchd/x.evemu"]).status == 66)
        #expect(try runTouchd(["replay", "--no-such-option"]).status == 64)
        #expect(try runTouchd(["no-such-command"]).status == 64)
        let bad = NSTemporaryDirectory() + "touchd-bad-config-\(getpid()).json"
        try "{\"clients\": {\"max\": 0}}".write(toFile: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let run = try runTouchd(["run", "--config", bad])
        #expect(run.status == 78)
        #expect(run.stderr.contains("clients.max: expected a whole number from 1 to 10000, found 0\n"), "\(run.stderr)")
        #expect(try runTouchd(["run", "--config", "/nonexistent-touchd/touchd.json"]).status == 78)
        let unit = try String(
            contentsOfFile: SharedRecordings.repositoryRoot + "/systemd/touchd.service", encoding: .utf8)
        let prevent = unit.split(separator: "\n").first { $0.hasPrefix("RestartPreventExitStatus=") }
        #expect(prevent.map { $0.split(separator: "=")[1].split(separator: " ").contains("78") } == true)
        let help = try runTouchd(["run", "--help"])
        #expect(help.stdout.contains("   78  the configuration or its scene is missing or wrong"))
    }

    @Test("replay to a full disk (/dev/full: every write is ENOSPC) says so and exits 74, EX_IOERR")
    func replayToAFullDisk() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let run = try runTouchd(["replay", "-q", Self.demo], outputHandle: full)
        #expect(run.status == 74)
        #expect(
            run.stderr == "touchd: error: replay: standard output: write: No space left on device\n", "\(run.stderr)")
    }

    /// Help, version and report output went out with its write's failure ignored: `> /dev/full` exited 0.
    @Test(
        "help, version and reports to a full disk exit 74, EX_IOERR, and say so, in touchd, touchctl and touchd-actions",
        arguments: [
            ["touchd", "--help"], ["touchd", "--version"], ["touchd", "replay", "--help"],
            ["touchd", "describe", demo], ["touchd", "calibrate", "--help"], ["touchctl", "--help"],
            ["touchctl", "--version"], ["touchd-actions", "--help"], ["touchd-actions", "--version"],
        ])
    func outputToAFullDisk(_ command: [String]) throws {
        let program = SharedRecordings.repositoryRoot + "/.build/debug/" + command[0]
        try #require(FileManager.default.isExecutableFile(atPath: program), "\(program) must be built first")
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(command.dropFirst())
        process.standardOutput = full
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74, "\(message)")
        #expect(message.contains("standard output: write: No space left on device"), "\(message)")
    }

    @Test("piped stderr reads 'touchd: error: …' on one line even for a path holding a newline and <0>")
    func plainOnAPipe() throws {
        let run = try runTouchd(["run", "--config", "/nonexistent-touchd/x\n<0>touchd: FORGED"])
        #expect(
            run.stderr
                == "touchd: error: run: /nonexistent-touchd/x\\n<0>touchd: FORGED: cannot open: No such file or directory\n"
        )
    }

    @Test("record: nothing to choose is 'there is none' and EX_UNAVAILABLE, not a prompt for [0--1]")
    func recordWithoutDevices() throws {
        #expect(throws: RecordError.self) { try RecordCommand.menu([]) }
        #expect(RecordError.noDevice.status.rawValue == 69)
        let devices = [(node: "/dev/input/event3", name: "panel"), (node: "/dev/input/event7", name: "pen")]
        #expect(try RecordCommand.menu(devices).hasSuffix("Select the device event number [3-7]: "))
        #expect(try RecordCommand.node(answer: "7", devices: devices) == "/dev/input/event7")
        #expect(throws: RecordError.self) { try RecordCommand.node(answer: "5", devices: devices) }
    }

    @Test("text output escapes a gesture's and a region's control characters after upper-casing")
    func textEscapes() throws {
        let gesture = GestureEvent(
            name: "\u{1b}[5m", kind: .longPress, event: .ended, time: EventTime(microseconds: 0),
            location: Point(x: 0, y: 0), fingers: 1)
        let line = try #require(
            TextFormatter.line(
                for: .gesture(region: InternedString("r\u{1b}]0;t\u{07}"), gesture), start: EventTime(microseconds: 0)))
        #expect(line.contains(#"\x1b[5M"#) && line.contains(#"r\x1b]0;t\x07"#))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 })
    }
}
