import Foundation
import Testing
import TouchClient
import TouchCore
import TouchPosix
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A reload reads the configuration inside the daemon's loop, as a SIGHUP's scene reload does: whatever stands at
/// the configuration's path then must not stall touches for everyone, and a file refused leaves the calibration
/// in force.
@Suite(
    "a reload of a hostile configuration file stalls nothing", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd), "touchd must be built first"))
struct CalibrationReloadHostileTests {
    static let mirrored =
        #"{"grab": false, "devices": [{"match": {"name": "touchd test touchscreen"}, "calibration": [-1, 0, 1, 0, 1, 0]}]}"#

    /// A daemon replaying taps at xinput_calibrator's places in a loop, its device mirrored in x by its rule.
    static func daemon(in directory: String) throws -> DaemonProcess {
        let recording = directory + "/taps.evemu"
        try CalibrationRecordings.evemu(matrix: .identity, targets: CalibrationReloadTests.places, jitter: 0).write(
            toFile: recording, atomically: true, encoding: .utf8)
        return try DaemonProcess(
            arguments: ["--replay", recording, "--loop", "--replay-waits", "1"], config: mirrored + "\n")
    }

    @Test("a FIFO at the configuration's path: SIGHUP is refused at once, and touches and requests go on")
    func fifoIsRefused() throws {
        let directory = try scratchDirectory("touchd-reload-fifo")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try Self.daemon(in: directory)
        let config = daemon.directory + "/touchd.json"
        defer {
            // A daemon blocked opening the FIFO is let go (a writer arrives and leaves) so that it can be stopped.
            let writer = open(config, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            daemon.stop()
        }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10), timeoutMilliseconds: 3000)
        #expect(try client.subscribe(events: ["touch"], fields: ["raw_x"]).ok)
        #expect(try CalibrationReloadTests.nextDown(client) != nil)

        try FileManager.default.removeItem(atPath: config)
        #expect(mkfifo(config, 0o644) == 0)
        daemon.signal(SIGHUP)
        #expect(
            daemon.logWillContain("SIGHUP: calibrations not reloaded: \(config): is not a regular file"),
            "\(daemon.log)")
        #expect(try client.ping())
        // The replay goes on under the old matrix: a tap at an eighth of the device is at 1920 − 240.
        let tap = try #require(try CalibrationReloadTests.nextDown(client))
        #expect(abs(tap.x - (1920 - tap.rawX / 4096 * 1920)) < 1, "\(tap)")
    }

    @Test("a configuration over 1 MiB is refused by reload, and the calibration in force stays")
    func hugeFileIsRefused() throws {
        let directory = try scratchDirectory("touchd-reload-huge")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try Self.daemon(in: directory)
        defer { daemon.stop() }
        let config = daemon.directory + "/touchd.json"
        // Valid JSON, identity calibration, padded with spaces past the limit.
        let identity =
            #"{"grab": false, "devices": [{"match": {"name": "touchd test touchscreen"}, "calibration": [1, 0, 0, 0, 1, 0]}]}"#
        try (identity + String(repeating: " ", count: 2 << 20) + "\n").write(
            toFile: config, atomically: true, encoding: .utf8)
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10), timeoutMilliseconds: 3000)
        #expect(try client.request(op: "reload").ok)
        #expect(
            daemon.logWillContain(
                "client 1: calibrations not reloaded: \(config): is larger than \(1 << 20) bytes"),
            "\(daemon.log)")
        #expect(!daemon.log.contains("calibration 1.0 0.0 0.0 0.0 1.0 0.0"), "\(daemon.log)")
    }

    /// A bad calibration is undone by deleting its rule: the device goes back to what it has with no rule (here,
    /// a recording with no udev property: the identity), as it would after a restart.
    @Test("a rule's calibration deleted from the file: reload puts the device back to the matrix it has without one")
    func removedRuleResets() throws {
        let directory = try scratchDirectory("touchd-reload-removed")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try Self.daemon(in: directory)
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10), timeoutMilliseconds: 3000)
        #expect(try client.subscribe(events: ["touch"], fields: ["raw_x"]).ok)
        let before = try #require(try CalibrationReloadTests.nextDown(client))
        #expect(abs(before.x - (1920 - before.rawX / 4096 * 1920)) < 1, "mirrored at first: \(before)")

        try #"{"grab": false}"#.write(toFile: daemon.directory + "/touchd.json", atomically: true, encoding: .utf8)
        #expect(try client.request(op: "reload").ok)
        #expect(daemon.logWillContain("calibration 1.0 0.0 0.0 0.0 1.0 0.0"), "\(daemon.log)")
        // Downs already read may come from before the reload: the last of the next ten is after it.
        var last = before
        for _ in 0..<10 { last = try #require(try CalibrationReloadTests.nextDown(client)) }
        #expect(abs(last.x - last.rawX / 4096 * 1920) < 1, "\(last)")
    }
}
