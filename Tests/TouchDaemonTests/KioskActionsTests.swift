import Foundation
import Testing
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// docs/kiosk.md's recipes (b) and (c) end to end: touchd replaying a generated stream on the Nexus 4's description
/// (1536 × 2560 units, the kiosk scenes' size), touchd-actions started on the recipe's actions file from
/// config/kiosk as shipped, and the recipe's command found on PATH, where the test puts a stand-in of that name
/// that writes its arguments down. What the browser sees of the same gestures: KioskRecipeTests.
@Suite(
    "touchd-actions runs the kiosk recipes' commands", .serialized, .actionsBuilt,
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
final class KioskActionsTests: ActionsSuite {
    let directory: String

    init() throws {
        directory = try scratchDirectory("touchd-kiosk-test")
        try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// An evemu line at `milliseconds`: `E: s.us type code value`, codes in hex, values in decimal.
    static func line(_ milliseconds: Int, _ type: Int, _ code: Int, _ value: Int) -> String {
        let microseconds = milliseconds * 1000
        let time = String(format: "%d.%06d", microseconds / 1_000_000, microseconds % 1_000_000)
        return "E: \(time) " + String(format: "%04x %04x %d", type, code, value)
    }

    /// Writes `name`.events (frames of `[slot: (tracking id or nil, x, y)]` every `stepMs`) and a copy of the Nexus
    /// 4's description beside it; returns the events file's path.
    func stream(_ name: String, stepMs: Int, frames: [[(slot: Int, id: Int?, x: Int, y: Int)]]) throws -> String {
        var lines: [String] = []
        for (index, frame) in frames.enumerated() {
            let at = index * stepMs
            for contact in frame {
                lines.append(Self.line(at, 3, 0x2f, contact.slot))
                if let id = contact.id { lines.append(Self.line(at, 3, 0x39, id)) }
                if contact.id != -1 {
                    lines.append(Self.line(at, 3, 0x35, contact.x))
                    lines.append(Self.line(at, 3, 0x36, contact.y))
                }
            }
            lines.append(Self.line(at, 0, 0, 0))
        }
        let path = directory + "/" + name + ".events"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: SharedRecordings.path("xorg-integration-tests/touchscreens/n4.desc"),
            toPath: directory + "/" + name + ".desc")
        return path
    }

    /// A stand-in for the recipe's command `name` on PATH: it appends its arguments to `directory/name.ran`.
    func standIn(_ name: String) throws -> String {
        let script = directory + "/bin/" + name
        let marker = directory + "/" + name + ".ran"
        try "#!/bin/sh\necho \"$@\" >> '\(marker)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return marker
    }

    /// touchd on `events` with `scene` (a file of config/kiosk), and touchd-actions on `actions` (another), with the
    /// stand-ins first on PATH. Returns both to stop.
    func run(scene: String, events: String, actions: String) throws -> (DaemonProcess, Process) {
        let daemon = try DaemonProcess(arguments: [
            "--scene", DaemonProcess.root + "/config/kiosk/" + scene, "--replay", events, "--replay-waits", "1",
        ])
        let path = directory + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let process = try startActions(
            DaemonProcess.root + "/config/kiosk/" + actions, socket: daemon.socket, log: directory + "/actions.log",
            environment: ["PATH=" + path])
        return (daemon, process)
    }

    @Test("(b) a drag down from the top strip runs the menu-actions.json command: kiosk-menu --open, once")
    func topMenu() throws {
        let marker = try standIn("kiosk-menu")
        // A tap in the strip (no drag: nothing runs), then a finger down in it moving 10 units a frame for 20
        // frames (200 units down the screen), lifted.
        var frames: [[(slot: Int, id: Int?, x: Int, y: Int)]] = [[(0, 1, 700, 20)], [(0, -1, 0, 0)]]
        frames.append([(0, 2, 700, 20)])
        for step in 1...20 { frames.append([(0, nil, 700, 20 + 10 * step)]) }
        frames.append([(0, -1, 0, 0)])
        let events = try stream("top", stepMs: 20, frames: frames)
        let (daemon, process) = try run(scene: "top-menu.json", events: events, actions: "menu-actions.json")
        defer {
            if process.isRunning { process.terminate() }
            daemon.stop()
        }
        #expect(waitFor(seconds: 15) { !self.lines(marker).isEmpty }, "\(lines(directory + "/actions.log"))")
        usleep(500_000)
        #expect(lines(marker) == ["--open"])
    }

    @Test("(c) five fingers held 3.5 s run the admin-actions.json command; held 1 s they run nothing")
    func adminLongPress() throws {
        let marker = try standIn("systemctl")
        func press(holdingFrames: Int) -> [[(slot: Int, id: Int?, x: Int, y: Int)]] {
            var frames: [[(slot: Int, id: Int?, x: Int, y: Int)]] = []
            for finger in 0..<5 { frames.append([(finger, 10 + finger, 200 + 280 * finger, 1300)]) }
            // Held, each finger moving 2 units and back in turn (within the allowable 40), a frame every 100 ms.
            for step in 0..<holdingFrames {
                frames.append([(step % 5, nil, 200 + 280 * (step % 5), 1300 + 2 * (step / 5 % 2))])
            }
            frames.append((0..<5).map { ($0, -1, 0, 0) })
            return frames
        }
        // 1 s held, 1 s apart (a pause of frames that change nothing would be dropped, so the pause is a held
        // single finger), then 3.5 s held.
        var frames = press(holdingFrames: 10)
        for step in 0..<10 { frames.append([(0, step == 0 ? 30 : nil, 600, 600 + step)]) }
        frames.append([(0, -1, 0, 0)])
        frames += press(holdingFrames: 35)
        let events = try stream("admin", stepMs: 100, frames: frames)
        let (daemon, process) = try run(scene: "browser.json", events: events, actions: "admin-actions.json")
        defer {
            if process.isRunning { process.terminate() }
            daemon.stop()
        }
        #expect(waitFor(seconds: 20) { !self.lines(marker).isEmpty }, "\(lines(directory + "/actions.log"))")
        usleep(1_000_000)
        #expect(lines(marker) == ["--user start kiosk-admin.service"])
    }
}
