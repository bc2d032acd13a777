import Foundation
import Testing
import TouchClient

#if canImport(Glibc)
    import Glibc
#endif

private let binariesBuilt =
    FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)
    && FileManager.default.isExecutableFile(atPath: DaemonProcess.touchctl)

@Suite("touchctl and touchd as a new user runs them", .serialized, .enabled(if: binariesBuilt))
struct TouchctlTests {
    static let scene = DaemonProcess.root + "/config/demo/scene.json"

    @Test("scene set with the shipped scene file (which ends in a newline) answers at once")
    func sceneSetShippedFile() throws {
        #expect(try String(contentsOfFile: Self.scene, encoding: .utf8).hasSuffix("}\n"))
        let daemon = try DaemonProcess(arguments: [])
        defer { daemon.stop() }
        let result = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "scene", "set", Self.scene], timeout: 8)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "scene set: version 2\n")
        let scene = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", daemon.socket, "scene", "get"])
        #expect(scene.out.contains(#""id":"play""#))
    }

    /// The view itself is tested in a terminal (scripts/view-test.sh, under tmux); here only what it says without one.
    @Test("view needs a terminal, and refuses options it does not know")
    func viewWithoutTerminal() throws {
        let daemon = try DaemonProcess(arguments: [])
        defer { daemon.stop() }
        let piped = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", daemon.socket, "view"], timeout: 8)
        #expect(piped.status == 1)
        #expect(piped.err == "touchctl: view: view needs a terminal on standard input and output\n")
        #expect(piped.out.isEmpty)  // not a byte of escape sequences into a pipe
        let unknown = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "view", "--colour"], timeout: 8)
        #expect(unknown.status == 2)
        #expect(unknown.err == "touchctl: view: unknown option '--colour'\n")
    }

    @Test("region add with JSON spread over lines, and the library's setScene with a pretty file")
    func multiLineJSON() throws {
        let daemon = try DaemonProcess(arguments: [])
        defer { daemon.stop() }
        let result = try DaemonProcess.run(
            DaemonProcess.touchctl,
            ["--socket", daemon.socket, "region", "add", "{\n  \"id\": \"edge\",\n  \"frame\": [0, 0, 40, 1080]\n}\n"],
            timeout: 8)
        #expect(result.out == "added\n", "\(result.err)")
        let client = try TouchClient(path: daemon.socket)
        let reply = try client.setScene(json: Array("{\n \"size\": [800,\n 600]\n}\n".utf8))
        #expect(reply.ok)
    }

    @Test("a scene file that is not JSON is named with its line; nothing is sent")
    func badSceneFile() throws {
        let daemon = try DaemonProcess(arguments: [])
        defer { daemon.stop() }
        let file = daemon.directory + "/broken.json"
        try "{\n  \"size\": [800, 600],\n  oops\n}\n".write(toFile: file, atomically: false, encoding: .utf8)
        let result = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", daemon.socket, "scene", "set", file])
        #expect(result.status == 2)
        #expect(result.err.contains("\(file): not valid JSON: line 3, column 3"))
        let missing = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "scene", "set", daemon.directory + "/none.json"])
        #expect(missing.err.contains("none.json: cannot open: No such file or directory"))
    }

    @Test("a server that never answers makes touchctl fail after --timeout, not hang")
    func replyTimeout() throws {
        let directory = try scratchDirectory("touchctl-timeout")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/mute.sock"
        // Says hello, then reads and never answers.
        let mute = """
            import socket, sys, time
            l = socket.socket(socket.AF_UNIX); l.bind(sys.argv[1]); l.listen(1)
            c, _ = l.accept()
            c.sendall(b'{"type":"hello","protocol":1,"server":"mute","devices":[],"permissions":{"subscribe":true,"scene":true}}\\n')
            time.sleep(10)
            """
        let server = try DaemonProcess.start("/usr/bin/python3", ["-c", mute, socket], stdout: directory + "/out")
        defer { server.terminate() }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        let started = Date()
        let result = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", socket, "--timeout", "0.5", "ping"], timeout: 8)
        #expect(result.status == 1)
        #expect(result.err.contains("touchd did not answer 'ping' within 500 ms"))
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("region ids with terminal escape sequences are shown escaped by monitor, never sent to the terminal")
    func escapedRegionIDs() throws {
        let daemon = try DaemonProcess(
            arguments: [
                "--replay", DaemonProcess.root + "/config/demo/panel.evemu", "--replay-waits", "1", "--scene",
                evilScenePath(),
            ])
        defer { daemon.stop() }
        let result = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "monitor", "--events", "touch", "--count", "3"],
            timeout: 15)
        #expect(result.out.contains(#"evil\u{1b}]0;owned\u{7}"#), "\(result.out)")
        #expect(!result.out.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 })
    }

    /// The demo's first touch goes down on `play` at (200, 125), (70, 70) inside it (`touchd replay
    /// config/demo/panel.evemu --scene config/demo/scene.json`): monitor prints what each line holds, and nothing
    /// for what a selection left out.
    @Test("monitor --fields prints the keys a line holds, whole lines as before")
    func monitorFields() throws {
        var printed: [String] = []
        for fields in [nil, "", "region"] as [String?] {
            let daemon = try DaemonProcess(
                arguments: [
                    "--replay", DaemonProcess.root + "/config/demo/panel.evemu", "--replay-waits", "1", "--scene",
                    DaemonProcess.root + "/config/demo/scene.json",
                ])
            defer { daemon.stop() }
            let selection = fields.map { ["--fields", $0] } ?? []
            let result = try DaemonProcess.run(
                DaemonProcess.touchctl,
                ["--socket", daemon.socket, "monitor", "--events", "touch", "--count", "1"] + selection, timeout: 15)
            printed.append(result.out)
        }
        #expect(printed[0].hasPrefix("replay0 DOWN    finger 1  play  200.0/125.0  local 70.0/70.0\n"), "\(printed[0])")
        #expect(printed[1].hasPrefix("DOWN    finger 1  200.0/125.0\n"), "\(printed[1])")
        #expect(printed[2].hasPrefix("DOWN    finger 1  play  200.0/125.0\n"), "\(printed[2])")
    }

    @Test("touchd --help lists every command")
    func helpListsCommands() throws {
        let result = try DaemonProcess.run(DaemonProcess.touchd, ["--help"])
        for command in ["run", "replay", "record", "list-devices", "describe"] {
            #expect(result.out.contains("\n  \(command) "), "\(command) missing from: \(result.out)")
        }
    }
}

/// A scene whose one full-screen region has an id carrying an OSC escape sequence (sets the terminal title).
private func evilScenePath() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("evil-scene-\(getpid()).json").path
    let scene = #"{"size": [1920, 1080], "regions": [{"id": "evil\u001b]0;owned\u0007", "frame": [0, 0, 1920, 1080]}]}"#
    try? scene.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
