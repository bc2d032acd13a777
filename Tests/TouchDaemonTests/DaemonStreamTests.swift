import Foundation
import Testing
import TouchClient
import TouchJSON
import TouchPosix
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

private let binariesBuilt =
    FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)
    && FileManager.default.isExecutableFile(atPath: DaemonProcess.touchctl)

@Suite("Daemon over its socket", .serialized, .enabled(if: binariesBuilt, "touchd and touchctl must be built first"))
struct DaemonStreamTests {
    static let demo = DaemonProcess.root + "/config/demo/panel.evemu"
    static let scene = DaemonProcess.root + "/config/demo/scene.json"

    /// The daemon replays the demo as a device once three clients (Swift library, touchctl, Python) have
    /// subscribed; each must receive exactly what `touchd replay --scene` prints, times and device name aside.
    @Test("three real clients receive the stream touchd replay prints for the same file and scene")
    func sameStreamAsReplay() throws {
        let offline = try DaemonProcess.run(DaemonProcess.touchd, ["replay", Self.demo, "--scene", Self.scene, "-q"])
        #expect(offline.status == 0)
        let expected = normalized(offline.out.split(separator: "\n"))
        #expect(expected.count > 300)

        let daemon = try DaemonProcess(arguments: ["--replay", Self.demo, "--scene", Self.scene, "--replay-waits", "3"])
        defer { daemon.stop() }
        let python = try DaemonProcess.start(
            "/usr/bin/env",
            [
                "python3", DaemonProcess.root + "/examples/touchd_client.py", "--socket", daemon.socket, "--count",
                "\(expected.count)",
            ],
            stdout: daemon.directory + "/python.out")
        let touchctl = try DaemonProcess.start(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "monitor", "--raw", "--count", "\(expected.count)"],
            stdout: daemon.directory + "/touchctl.out")
        usleep(300_000)  // both subscribe; the library client below is the third

        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(client.hello.protocolVersion == 1)
        #expect(client.hello.devices == ["replay0"])
        #expect(try client.subscribe().ok)
        var lines: [Substring] = []
        while lines.count < expected.count, let line = try client.nextLine() {
            lines.append(Substring(String(decoding: line, as: UTF8.self)))
        }
        #expect(normalized(lines) == expected)

        python.waitUntilExit()
        touchctl.waitUntilExit()
        let fromPython = try String(contentsOfFile: daemon.directory + "/python.out", encoding: .utf8)
        let fromTouchctl = try String(contentsOfFile: daemon.directory + "/touchctl.out", encoding: .utf8)
        #expect(normalized(fromPython.split(separator: "\n")) == expected)
        #expect(normalized(fromTouchctl.split(separator: "\n")) == expected)
        // The gestures are there, on their regions.
        #expect(fromPython.contains(#""region":"favourite","gesture":"double-tap","kind":"tap","state":"ended""#))
    }

    @Test("a bad scene over the socket is refused with its error and the old scene keeps working")
    func badSceneRefused() throws {
        let daemon = try DaemonProcess(arguments: ["--scene", Self.scene, "--replay", Self.demo, "--replay-waits", "1"])
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        let before = try client.request(op: "get-scene")
        let bad = try client.setScene(
            json: Array(#"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, -1, 1]}]}"#.utf8))
        #expect(!bad.ok)
        #expect(bad.errorCode == "invalid-scene")
        #expect(bad.errorMessage == "scene.regions[0].frame: width and height must not be negative")
        let after = try client.request(op: "get-scene")
        #expect(before.json["scene"] == after.json["scene"])
        // The old scene still dispatches: the demo's tap lands on "play".
        #expect(try client.subscribe(events: ["gesture"]).ok)
        var gestures: [String] = []
        while let message = try client.next() {
            if case .gesture(let gesture) = message, gesture.state == "ended" {
                gestures.append(gesture.region + "/" + gesture.name)
            }
            if gestures.count == 6 { break }
        }
        #expect(gestures.contains("play/tap"))
    }

    @Test("region edits over the socket: update moves a region, remove cancels its finger, unknown ids are not found")
    func regionEdits() throws {
        let daemon = try DaemonProcess(arguments: ["--scene", Self.scene])
        defer { daemon.stop() }
        let moved = try DaemonProcess.run(
            DaemonProcess.touchctl,
            ["--socket", daemon.socket, "region", "update", "play", "frame=[10,10,50,50]", "hidden=false"])
        #expect(moved.status == 0, "\(moved.err)")
        let scene = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", daemon.socket, "scene", "get"])
        #expect(scene.out.contains(#""id":"play","frame":[10,10,50,50]"#))
        let missing = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "region", "remove", "ghost"])
        #expect(missing.status == 65)  // not-found: EX_DATAERR
        #expect(missing.err.contains("not-found: no region 'ghost'"))
        let ping = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", daemon.socket, "ping"])
        #expect(ping.out.contains("touchd answers: touchd 0.1.0, protocol 1"))
    }

    @Test("a symlinked scene file: editing the link's target in its own directory reloads, as swapping the link does")
    func symlinkedSceneFileReload() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-link-\(getpid())").path
        let linkDirectory = base + "/etc"
        let targetDirectory = base + "/kiosk"
        for directory in [linkDirectory, targetDirectory] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: base) }
        let target = targetDirectory + "/scene.json"
        let other = targetDirectory + "/other.json"
        let link = linkDirectory + "/scene.json"
        try #"{"size": [100, 100], "regions": [{"id": "one", "frame": [0, 0, 10, 10]}]}"#.write(
            toFile: target, atomically: true, encoding: .utf8)
        try #"{"size": [100, 100], "regions": [{"id": "three", "frame": [0, 0, 10, 10]}]}"#.write(
            toFile: other, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let daemon = try DaemonProcess(arguments: ["--scene", link])
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["scene"]).ok)

        // A change the watch misses fails the test instead of hanging it.
        func nextNotice() throws -> Message? {
            try Posix.waitUntilReadable(client.fileDescriptor, timeoutMilliseconds: 10_000) ? client.next() : nil
        }
        // The target edited where it lives: nothing in the link's directory changes.
        try #"{"size": [100, 100], "regions": [{"id": "two", "frame": [0, 0, 10, 10]}]}"#.write(
            toFile: target, atomically: true, encoding: .utf8)
        guard case .sceneChanged(let version, let source)? = try nextNotice() else {
            Issue.record("no scene-changed after the link's target changed")
            return
        }
        #expect(version == 2)
        #expect(source.contains("the scene file changed"))
        let scene = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", daemon.socket, "scene", "get"])
        #expect(scene.out.contains(#""id":"two""#))

        // The link swapped to another file: seen in the link's directory, and the new target is followed.
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: other)
        guard case .sceneChanged(let swapped, _)? = try nextNotice() else {
            Issue.record("no scene-changed after the link was swapped")
            return
        }
        #expect(swapped == 3)
        let after = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", daemon.socket, "scene", "get"])
        #expect(after.out.contains(#""id":"three""#))
    }

    @Test("the scene file: a good edit reloads by itself, a bad one is refused and the old scene stays; SIGHUP reloads")
    func sceneFileReload() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-scene-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/scene.json"
        try #"{"size": [100, 100], "regions": [{"id": "one", "frame": [0, 0, 10, 10]}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--scene", path])
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["scene"]).ok)

        try #"{"size": [100, 100], "regions": [{"id": "two", "frame": [0, 0, 10, 10]}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        guard case .sceneChanged(let version, let source)? = try client.next() else {
            Issue.record("no scene-changed after the file changed")
            return
        }
        #expect(version == 2)
        #expect(source.contains("the scene file changed"))

        try #"{"size": [100, 100], "regions": [{"id": "three", "frame": [0, 0, -10, 10]}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        usleep(300_000)
        #expect(daemon.log.contains("scene not reloaded, the old one stays in force"))
        #expect(daemon.log.contains("regions[0].frame: width and height must not be negative"))
        let scene = try client.request(op: "get-scene")
        #expect(scene.json["scene"].map { "\($0)" }?.contains("two") == true)

        try #"{"size": [100, 100], "regions": [{"id": "four", "frame": [0, 0, 10, 10]}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        _ = try client.next()  // the file watch
        daemon.signal(SIGHUP)
        guard case .sceneChanged(let hupVersion, let hupSource)? = try client.next() else {
            Issue.record("no scene-changed after SIGHUP")
            return
        }
        #expect(hupVersion == 4)
        #expect(hupSource.contains("SIGHUP"))
    }
}
