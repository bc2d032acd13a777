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
        #expect(piped.status == 64)  // EX_USAGE
        #expect(piped.err == "touchctl: view: view needs a terminal on standard input and output\n")
        #expect(piped.out.isEmpty)  // not a byte of escape sequences into a pipe
        let unknown = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "view", "--colour"], timeout: 8)
        #expect(unknown.status == 64)
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
        #expect(result.status == 65)  // EX_DATAERR
        #expect(result.err.contains("\(file): not valid JSON: line 3, column 3"))
        let missing = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "scene", "set", daemon.directory + "/none.json"])
        #expect(missing.err.contains("none.json: cannot open: No such file or directory"))
        #expect(missing.status == 66)  // EX_NOINPUT
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
        #expect(result.status == 75)  // EX_TEMPFAIL
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

    /// Started before the daemon goes: the monitor connects and subscribes (the daemon logs the connection), then
    /// touchd is killed (no goodbye) or stopped (goodbye `shutdown`). Either way monitor must say so and fail.
    @Test("monitor exits 69 with a reason when touchd is killed or stopped under it", arguments: [SIGKILL, SIGTERM])
    func monitorSeesTheDaemonGo(signal: Int32) throws {
        let daemon = try DaemonProcess(arguments: [])
        defer { daemon.stop() }
        let output = daemon.directory + "/monitor"
        let monitor = try DaemonProcess.start(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "monitor"], stdout: output + ".out",
            stderr: output + ".err")
        defer { if monitor.isRunning { monitor.terminate() } }
        #expect(daemon.logWillContain("client 1 connected"))
        usleep(200_000)  // the subscribe's round trip; a kill before its reply ends monitor the same way
        daemon.signal(signal)
        let deadline = Date().addingTimeInterval(10)
        while monitor.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!monitor.isRunning, "monitor still running after touchd went away")
        monitor.waitUntilExit()
        let err = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
        #expect(monitor.terminationStatus == 69)  // EX_UNAVAILABLE
        if signal == SIGKILL {
            #expect(err == "touchctl: monitor: touchd closed the connection\n")
        } else {
            #expect(err.hasPrefix("touchctl: monitor: touchd said goodbye: shutdown: "), "\(err)")
        }
    }

    @Test("touchd's error message quoting a region id is escaped on stderr, with not-found's status")
    func escapedErrorMessage() throws {
        let daemon = try DaemonProcess(arguments: [])
        defer { daemon.stop() }
        let result = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "region", "remove", "evil\u{1b}]0;owned\u{7}"],
            timeout: 8)
        #expect(result.status == 65)  // not-found: EX_DATAERR
        #expect(result.err == #"touchctl: not-found: no region 'evil\u{1b}]0;owned\u{7}'"# + "\n")
        #expect(!result.err.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 })
    }

    /// A peer whose server name, error messages and scene carry control characters, raw (U+009B is a one-byte CSI
    /// to a terminal reading 8-bit controls; JSON writers leave it and DEL unescaped): nothing of them reaches the
    /// terminal, and `scene get` still prints JSON with the same strings.
    @Test("the server name, error replies and JSON from a peer are printed without control characters")
    func escapedPeerText() throws {
        let directory = try scratchDirectory("touchctl-evil")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/evil.sock"
        let peer = """
            import json, socket, sys
            l = socket.socket(socket.AF_UNIX); l.bind(sys.argv[1]); l.listen(8)
            # Gone by itself a minute after the last client, should the test die before it terminates the peer.
            l.settimeout(60)
            evil = 'x\\x1b]0;owned\\x07\\u009b2J\\x7f'
            def send(c, value): c.sendall(json.dumps(value, ensure_ascii=False).encode() + b'\\n')
            while True:
                try:
                    c, _ = l.accept()
                except socket.timeout:
                    sys.exit(0)
                c.settimeout(None)
                send(c, {"type": "hello", "protocol": 1, "server": evil, "devices": [],
                         "permissions": {"subscribe": True, "scene": True}})
                request = json.loads(c.makefile().readline())
                if request["op"] == "get-scene":
                    send(c, {"type": "reply", "id": request["id"], "ok": True, "scene": {"regions": [{"id": evil}]}})
                elif request["op"] == "ping":
                    send(c, {"type": "reply", "id": request["id"], "ok": True, "pong": True})
                elif request["op"] == "devices":
                    send(c, {"type": "reply", "id": request["id"], "ok": True, "devices": [{"device": evil}]})
                else:
                    send(c, {"type": "reply", "id": request["id"], "ok": False,
                             "error": {"code": "permission-denied", "message": evil}})
                c.close()
            """
        let server = try DaemonProcess.start("/usr/bin/python3", ["-c", peer, socket], stdout: directory + "/out")
        defer { server.terminate() }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        func hasControl(_ text: String) -> Bool {
            text.unicodeScalars.contains {
                $0.value == 0x1b || $0.value == 0x07 || $0.value == 0x9b || $0.value == 0x7f
            }
        }
        let region = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", socket, "region", "remove", "a"])
        #expect(region.status == 77)  // permission-denied: EX_NOPERM
        #expect(region.err == #"touchctl: permission-denied: x\u{1b}]0;owned\u{7}\u{9b}2J\u{7f}"# + "\n")
        let scene = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", socket, "scene", "get"])
        #expect(scene.status == 0, "\(scene.err)")
        #expect(scene.out == #"{"regions":[{"id":"x\u001b]0;owned\u0007\u009b2J\u007f"}]}"# + "\n")
        let devices = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", socket, "devices"])
        #expect(devices.out == #"{"device":"x\u001b]0;owned\u0007\u009b2J\u007f"}"# + "\n")
        let ping = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", socket, "ping"])
        #expect(ping.out == #"touchd answers: x\u{1b}]0;owned\u{7}\u{9b}2J\u{7f}, protocol 1"# + "\n")
        for result in [region, scene, devices, ping] { #expect(!hasControl(result.out) && !hasControl(result.err)) }
    }

    @Test("touchctl --help documents its exit statuses")
    func helpListsExitStatuses() throws {
        let result = try DaemonProcess.run(DaemonProcess.touchctl, ["--help"])
        for status in [64, 65, 66, 69, 74, 75, 76, 77] {
            #expect(result.out.contains("\n  \(status)  "), "\(status) missing from: \(result.out)")
        }
        let unknown = try DaemonProcess.run(DaemonProcess.touchctl, ["frobnicate"])
        #expect(unknown.status == 64)
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
