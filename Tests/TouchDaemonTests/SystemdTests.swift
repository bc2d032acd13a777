import Foundation
import Testing
import TouchClient
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

private let analyze = "/usr/bin/systemd-analyze"
private let hasAnalyze = FileManager.default.isExecutableFile(atPath: analyze)
private let hasCompiler =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/gcc")
    && FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)

@Suite("systemd units", .enabled(if: hasAnalyze, "systemd-analyze is not installed"))
struct SystemdUnitTests {
    static let units = SharedRecordings.repositoryRoot + "/systemd"

    /// The unit's target: exposure ≤ 1.5 on Debian 12's systemd (docs/deployment.md lists what is left out).
    @Test("systemd-analyze security scores the service at 1.5 or better")
    func exposure() throws {
        let result = try DaemonProcess.run(
            analyze, ["security", "--offline=true", "--no-pager", Self.units + "/touchd.service"])
        let line = try #require(
            result.out.split(separator: "\n").first { $0.contains("Overall exposure level for touchd.service:") })
        let score = try #require(Double(line.split(separator: ":").last!.split(separator: " ").first ?? ""))
        #expect(score <= 1.5, "\(line)")
    }

    @Test("systemd-analyze verify accepts the service and socket units")
    func verify() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-units-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // verify checks that ExecStart exists: point it at the binary this build made.
        let service = try String(contentsOfFile: Self.units + "/touchd.service", encoding: .utf8)
            .replacingOccurrences(of: "/usr/bin/touchd", with: DaemonProcess.touchd)
        try service.write(toFile: directory + "/touchd.service", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Self.units + "/touchd.socket", toPath: directory + "/touchd.socket")
        let result = try DaemonProcess.run(
            analyze, ["verify", "--man=no", directory + "/touchd.service", directory + "/touchd.socket"])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(!result.err.contains("touchd.service:"), "\(result.err)")
        #expect(!result.err.contains("touchd.socket:"), "\(result.err)")
    }
}

@Suite(
    "sd_notify, socket activation and the watchdog", .serialized,
    .enabled(if: hasCompiler, "needs gcc and a built touchd"))
struct SystemdNotifyTests {
    static func harness() throws -> String {
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("notify-harness-\(getpid())").path
        if !FileManager.default.fileExists(atPath: binary) {
            let build = try DaemonProcess.run(
                "/usr/bin/gcc", ["-O2", "-o", binary, SharedRecordings.repositoryRoot + "/Tests/vm/notify-harness.c"])
            guard build.status == 0 else { throw DaemonTestError.notStarted(build.err) }
        }
        return binary
    }

    @Test("READY=1 once the device is open and the passed socket listens; STATUS, WATCHDOG=1, STOPPING=1")
    func lifecycle() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-notify-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/activated.sock"
        let log = directory + "/notify.log"
        let root = SharedRecordings.repositoryRoot
        let daemon = try DaemonProcess.start(
            try Self.harness(),
            [
                "--listen", socket, "--watchdog-usec", "300000", log, "--", DaemonProcess.touchd, "run", "--socket",
                directory + "/own.sock",
                "--scene", root + "/config/demo/scene.json", "--replay", root + "/config/demo/panel.evemu",
            ],
            stdout: directory + "/out", stderr: directory + "/daemon.log")
        func notifications() -> [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map {
                String($0.drop { $0 != " " }.dropFirst())
            }
        }
        for _ in 0..<100 where !notifications().contains(where: { $0.hasPrefix("READY=1") }) { usleep(20_000) }
        let ready = try #require(notifications().first { $0.hasPrefix("READY=1") })
        #expect(ready == "READY=1|STATUS=1 device(s), 0 client(s), scene version 1")
        // Ready means ready: the passed socket answers at once.
        let client = try TouchClient(path: socket)
        #expect(try client.ping())
        usleep(700_000)
        #expect(notifications().filter { $0 == "WATCHDOG=1" }.count >= 3)  // every 150 ms
        #expect(notifications().contains("STATUS=1 device(s), 1 client(s), scene version 1"))
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(notifications().last == "STOPPING=1")
        let daemonLog = try String(contentsOfFile: directory + "/daemon.log", encoding: .utf8)
        #expect(daemonLog.contains("(socket activation)"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/own.sock"))  // it used the passed socket
    }
}
