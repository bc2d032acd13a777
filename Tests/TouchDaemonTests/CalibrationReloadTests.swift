import Foundation
import Testing
import TouchClient
import TouchCore
import TouchJSON
import TouchPosix
import TouchTestKit

/// What `touchctl calibrate` relies on in the daemon: the device's axes in `devices`, raw positions in touch lines,
/// and a `reload` that makes a newly written `calibration` rule the mapping at once.
@Suite(
    "the daemon reloads a device's calibration", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd), "touchd must be built first"))
struct CalibrationReloadTests {
    /// xinput_calibrator's places; the panel is perfect, so each tap reads where its place is on the device.
    static let places: [(x: Double, y: Double)] = [
        (0.125, 0.125), (0.875, 0.125), (0.125, 0.875), (0.875, 0.875), (0.5, 0.5),
    ]

    /// The next `down` of a touch line, as (x, y, raw_x).
    static func nextDown(_ client: TouchClient) throws -> (x: Double, y: Double, rawX: Double)? {
        while try Posix.waitUntilReadable(client.fileDescriptor, timeoutMilliseconds: 10_000),
            let message = try client.next()
        {
            guard case .touch(let touch) = message, touch.phase == "down",
                case .number(let raw, _)? = touch.json["raw_x"]
            else { continue }
            return (touch.x, touch.y, raw)
        }
        return nil
    }

    @Test("devices gives the axes; after a rule is written, reload mirrors the next pass of the replayed taps")
    func reloadTakesTheNewRule() throws {
        let directory = try scratchDirectory("touchd-calibration")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = directory + "/taps.evemu"
        try CalibrationRecordings.evemu(matrix: .identity, targets: Self.places, jitter: 0).write(
            toFile: recording, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(
            arguments: ["--replay", recording, "--loop", "--replay-waits", "1"], config: "{\n  \"grab\": false\n}\n")
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        let devices = try client.request(op: "devices")
        guard case .array(let list, _)? = devices.json["devices"], let device = list.first else {
            Issue.record("no devices in \(devices.json)")
            return
        }
        #expect(device["x"] == (try JSONParser.parse(#"{"min": 0, "max": 4095, "resolution": 16}"#)))
        #expect(device["y"] == (try JSONParser.parse(#"{"min": 0, "max": 4095, "resolution": 16}"#)))
        #expect(try client.subscribe(events: ["touch"], fields: ["raw_x", "raw_y"]).ok)

        // Identity: the first tap, at an eighth of the device, is at an eighth of the 1920×1080 scene.
        let first = try #require(try Self.nextDown(client))
        #expect(abs(first.x - 240) < 1 && abs(first.y - 135) < 1, "\(first)")
        #expect(first.rawX == 512)

        try
            #"{"grab": false, "devices": [{"match": {"name": "touchd test touchscreen"}, "calibration": [-1, 0, 1, 0, 1, 0]}]}"#
            .write(toFile: daemon.directory + "/touchd.json", atomically: true, encoding: .utf8)
        let reload = try client.request(op: "reload")
        #expect(reload.ok, "\(reload.errorMessage ?? "")")
        #expect(daemon.logWillContain("calibration -1.0 0.0 1.0 0.0 1.0 0.0"), "\(daemon.log)")

        // The next time the replay reaches the first tap (raw x 512), x is mirrored: 1920 − 240.
        var mirrored: (x: Double, y: Double, rawX: Double)?
        for _ in 0..<20 {
            guard let down = try Self.nextDown(client) else { break }
            if down.rawX == 512 && down.y < 540 {
                mirrored = down
                break
            }
        }
        let tap = try #require(mirrored)
        #expect(abs(tap.x - 1680) < 1 && abs(tap.y - 135) < 1, "\(tap)")
    }

    /// The next down at the first tap's raw position (raw x 512, upper half), within `passes` downs.
    static func nextFirstTap(_ client: TouchClient, passes: Int = 20) throws -> (x: Double, y: Double)? {
        for _ in 0..<passes {
            guard let down = try nextDown(client) else { return nil }
            if down.rawX == 512 && down.y < 540 { return (down.x, down.y) }
        }
        return nil
    }

    @Test("a calibration rule removed from the file and reloaded gives the device back the identity")
    func removedRuleGoesBackToIdentity() throws {
        let directory = try scratchDirectory("touchd-calibration")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = directory + "/taps.evemu"
        try CalibrationRecordings.evemu(matrix: .identity, targets: Self.places, jitter: 0).write(
            toFile: recording, atomically: true, encoding: .utf8)
        let calibrated =
            #"{"grab": false, "devices": [{"match": {"name": "touchd test touchscreen"}, "calibration": [-1, 0, 1, 0, 1, 0]}]}"#
        let daemon = try DaemonProcess(
            arguments: ["--replay", recording, "--loop", "--replay-waits", "1"], config: calibrated)
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["touch"], fields: ["raw_x", "raw_y"]).ok)

        // Started with the rule: the tap at an eighth of the device is mirrored, 1920 − 240.
        let mirrored = try #require(try Self.nextFirstTap(client))
        #expect(abs(mirrored.x - 1680) < 1 && abs(mirrored.y - 135) < 1, "\(mirrored)")

        try "{\"grab\": false}\n".write(toFile: daemon.directory + "/touchd.json", atomically: true, encoding: .utf8)
        #expect(try client.request(op: "reload").ok)
        #expect(daemon.logWillContain("calibration 1.0 0.0 0.0 0.0 1.0 0.0"), "\(daemon.log)")

        // Without a rule there is no calibration: the same tap is where the device reads it, at 240.
        let plain = try #require(try Self.nextFirstTap(client))
        #expect(abs(plain.x - 240) < 1 && abs(plain.y - 135) < 1, "\(plain)")
    }
}
