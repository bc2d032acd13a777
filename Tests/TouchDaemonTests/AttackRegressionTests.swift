import Foundation
import Testing
import TouchClient

#if canImport(Glibc)
    import Glibc
#endif

/// A Unix socket server that listens and never accepts, its backlog filled: what a stopped daemon looks like.
private let fullBacklog = """
    import socket, sys, time
    l = socket.socket(socket.AF_UNIX); l.bind(sys.argv[1]); l.listen(0)
    held = []
    while True:
        c = socket.socket(socket.AF_UNIX); c.setblocking(False)
        try:
            c.connect(sys.argv[1]); held.append(c)
        except BlockingIOError:
            break
    print("full", len(held), flush=True)
    time.sleep(float(sys.argv[2]))
    """

private func waitForLine(_ file: String) {
    for _ in 0..<200 where ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").isEmpty { usleep(20_000) }
}

@Suite(
    "Attacks found by review: each now holds", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct AttackRegressionTests {
    static let demo = DaemonProcess.root + "/config/demo/panel.evemu"
    static let scene = DaemonProcess.root + "/config/demo/scene.json"

    @Test("3,000 pipelined scene edits: replies in order, the daemon alive (was: reversed replies, then SIGSEGV)")
    func pipelinedEdits() throws {
        let daemon = try DaemonProcess(arguments: ["--scene", Self.scene])
        defer { daemon.stop() }
        let script = """
            import socket, sys, threading
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); n = int(sys.argv[2])
            lines = [b'{"op":"update-region","id":%d,"region":"play","set":{"hidden":%s}}\\n' % (i, b'true' if i % 2 else b'false') for i in range(n)]
            lines.insert(1, b'{"op":"ping","id":"between"}\\n')
            threading.Thread(target=lambda: s.sendall(b''.join(lines))).start()
            f = s.makefile('rb'); f.readline()
            ids = []
            while len(ids) < n + 1:
                line = f.readline()
                if not line: break
                if b'"type":"reply"' in line: ids.append(line.split(b'"id":')[1].split(b',')[0].decode())
            print(ids[:4], len(ids), ids[4:] == [str(i) for i in range(3, n)])
            """
        let result = try DaemonProcess.run("/usr/bin/python3", ["-c", script, daemon.socket, "3000"], timeout: 60)
        #expect(result.out == "['0', '\"between\"', '1', '2'] 3001 True\n", "\(result.err)")
        #expect(daemon.process.isRunning)
    }

    @Test("touchctl gives up on a server that never says hello, and on a full backlog, within its timeout")
    func touchctlNeverHangs() throws {
        let directory = try scratchDirectory("touchd-attack")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mute = directory + "/mute.sock"
        let silent = try DaemonProcess.start(
            "/usr/bin/python3",
            [
                "-c",
                "import socket,sys,time;l=socket.socket(socket.AF_UNIX);l.bind(sys.argv[1]);l.listen(8);c,_=l.accept();time.sleep(20)",
                mute,
            ],
            stdout: directory + "/silent.out")
        defer { silent.terminate() }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: mute) { usleep(20_000) }
        var started = Date()
        let noHello = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", mute, "--timeout", "0.5", "ping"], timeout: 10)
        #expect(noHello.err.contains("touchd did not say hello within 500 ms"), "\(noHello.err)")
        #expect(Date().timeIntervalSince(started) < 5)

        let stuck = directory + "/stuck.sock"
        let server = try DaemonProcess.start(
            "/usr/bin/python3", ["-c", fullBacklog, stuck, "20"], stdout: directory + "/stuck.out")
        defer { server.terminate() }
        waitForLine(directory + "/stuck.out")
        started = Date()
        let full = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", stuck, "--timeout", "1", "ping"], timeout: 10)
        #expect(full.status != 0)
        #expect(full.err.contains("Resource temporarily unavailable"), "\(full.err)")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("touchd's start-up probe of a socket whose server is stuck fails at once instead of hanging")
    func startupProbeDoesNotHang() throws {
        let directory = try scratchDirectory("touchd-attack")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/touchd.sock"
        let server = try DaemonProcess.start(
            "/usr/bin/python3", ["-c", fullBacklog, path, "20"], stdout: directory + "/stuck.out")
        defer { server.terminate() }
        waitForLine(directory + "/stuck.out")
        let started = Date()
        let result = try DaemonProcess.run(
            DaemonProcess.touchd, ["run", "--socket", path, "--replay", Self.demo], timeout: 10)
        #expect(result.err.contains("another server is listening there (its backlog is full)"), "\(result.err)")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("out of descriptors, touchd pauses accepting instead of spinning and flooding the log")
    func descriptorExhaustion() throws {
        let daemon = try DaemonProcess(
            arguments: [], config: #"{"clients": {"max": 200, "reserved": 1}}"#,
            launcher: ["/usr/bin/prlimit", "--nofile=40:40"])
        defer { daemon.stop() }
        var peers: [HostileClientTests.RawPeer] = []
        for _ in 0..<60 { if let peer = try? HostileClientTests.RawPeer(daemon.socket) { peers.append(peer) } }
        usleep(1_500_000)
        let stat = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/stat", encoding: .utf8)
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        #expect(ticks < 50, "the daemon used \(ticks) ticks of CPU in 1.5 s")
        let complaints = daemon.log.split(separator: "\n").filter { $0.contains("Too many open files") }.count
        #expect(complaints >= 1 && complaints < 40, "\(complaints) log lines")
        peers.removeAll()
        usleep(300_000)
        // Descriptors free again: new clients get in.
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 20))
        #expect(try client.ping())
    }

    @Test("the socket is removed at exit by its directory, even after the directory was renamed")
    func removalFollowsTheDirectory() throws {
        let top = try scratchDirectory("touchd-attack")
        defer { try? FileManager.default.removeItem(atPath: top) }
        mkdir(top + "/d", 0o755)
        mkdir(top + "/victim", 0o755)
        try "victim\n".write(toFile: top + "/victim/t.sock", atomically: false, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: [], socket: top + "/d/t.sock")
        #expect(rename(top + "/d", top + "/d.old") == 0)
        #expect(symlink(top + "/victim", top + "/d") == 0)
        daemon.signal(SIGTERM)
        daemon.process.waitUntilExit()
        #expect(try String(contentsOfFile: top + "/victim/t.sock", encoding: .utf8) == "victim\n")
        #expect(!FileManager.default.fileExists(atPath: top + "/d.old/t.sock"))
        daemon.stop()
    }

    @Test("a missing socket directory is made 0755 whatever the umask; a missing grandparent is an error")
    func missingDirectory() throws {
        let top = try scratchDirectory("touchd-attack")
        defer { try? FileManager.default.removeItem(atPath: top) }
        let withUmask = ["/bin/sh", "-c", #"umask 0277; exec "$@""#, "sh"]
        let daemon = try DaemonProcess(arguments: [], socket: top + "/run/t.sock", launcher: withUmask)
        var info = stat()
        #expect(lstat(top + "/run", &info) == 0 && info.st_mode & 0o7777 == 0o755)
        #expect(lstat(top + "/run/t.sock", &info) == 0 && info.st_mode & 0o777 == 0o660)
        daemon.stop()
        let result = try DaemonProcess.run(
            DaemonProcess.touchd, ["run", "--socket", top + "/a/b/t.sock", "--replay", Self.demo], timeout: 10)
        #expect(result.err.contains("its directory \(top)/a/b does not exist, nor does its parent"), "\(result.err)")
    }

    @Test("touchctl scene set reads a pipe, and says why it cannot read a directory")
    func sceneFromPipe() throws {
        let daemon = try DaemonProcess(arguments: [])
        defer { daemon.stop() }
        let piped = try DaemonProcess.run(
            "/bin/sh",
            ["-c", "\"$0\" --socket \"$1\" scene set - < \"$2\"", DaemonProcess.touchctl, daemon.socket, Self.scene])
        #expect(piped.out == "scene set: version 2\n", "\(piped.err)")
        let directory = try DaemonProcess.run(
            DaemonProcess.touchctl, ["--socket", daemon.socket, "scene", "set", daemon.directory])
        #expect(directory.err.contains("\(daemon.directory): is a directory"), "\(directory.err)")
    }
}
