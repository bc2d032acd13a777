import Foundation
import Testing
import TouchClient

#if canImport(Glibc)
    import Glibc
#endif

/// Python clients that pipeline, half-close, or sit idle: what each gets from a daemon with a small queue.
private let pipeliningReader = """
    import socket, sys, threading
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
    n = int(sys.argv[2])
    threading.Thread(target=lambda: s.sendall(b''.join(b'{"op":"ping","id":%d}\\n' % i for i in range(n)))).start()
    f = s.makefile('rb'); f.readline()
    ids = []
    while len(ids) < n:
        line = f.readline()
        if not line: break
        ids.append(int(line.split(b'"id":')[1].split(b',')[0]))
    print(len(ids), ids == list(range(n)))
    """

private let halfCloser = """
    import socket, sys, threading
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
    def send():
        s.sendall(b''.join(b'{"op":"ping","id":%d}\\n' % i for i in range(int(sys.argv[2]))))
        s.shutdown(socket.SHUT_WR)
    threading.Thread(target=send).start()
    f = s.makefile('rb'); f.readline()
    print(sum(1 for line in f if b'"pong":true' in line))
    """

@Suite(
    "Client fates: backpressure, half-close, idle and stalled connections, reserved connections", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct ClientFateTests {
    static let demo = DaemonProcess.root + "/config/demo/panel.evemu"

    @Test("a client that pipelines 30,000 pings while reading gets every reply, in order, and stays connected")
    func pipeliningClientIsSlowedNotDropped() throws {
        let daemon = try DaemonProcess(
            arguments: ["--replay", Self.demo, "--loop", "--speed", "20"],
            config: #"{"clients": {"queueBytes": 65536}}"#)
        defer { daemon.stop() }
        let result = try DaemonProcess.run("/usr/bin/python3", ["-c", pipeliningReader, daemon.socket, "30000"])
        // 30,000 replies of ~40 bytes: about 18 times the queue's 64 KiB.
        #expect(result.out == "30000 True\n", "\(result.err)")
        #expect(!daemon.log.contains("did not read"))
    }

    @Test("a client that sends its requests and then shuts down its side still gets every reply")
    func halfClosedClientGetsItsReplies() throws {
        let daemon = try DaemonProcess(arguments: [], config: #"{"clients": {"queueBytes": 65536}}"#)
        defer { daemon.stop() }
        let result = try DaemonProcess.run("/usr/bin/python3", ["-c", halfCloser, daemon.socket, "5000"])
        #expect(result.out == "5000\n", "\(result.err)")
    }

    @Test("a connection that never asks anything is closed after the idle timeout, with a goodbye")
    func idleConnectionClosed() throws {
        let daemon = try DaemonProcess(arguments: [], config: #"{"clients": {"idleTimeoutSeconds": 1}}"#)
        defer { daemon.stop() }
        let idle = try HostileClientTests.RawPeer(daemon.socket)
        let active = try HostileClientTests.RawPeer(daemon.socket)
        active.send(#"{"op":"ping","id":1}"# + "\n")
        let idleLines = idle.lines(3, timeoutMilliseconds: 3000)
        #expect(idleLines.count == 2)
        #expect(idleLines.last?.contains(#""type":"goodbye","code":"idle""#) == true)
        #expect(idle.drainToEnd(timeoutMilliseconds: 1000))
        // The one that asked something stays.
        #expect(active.lines(2, timeoutMilliseconds: 2000).count == 2)
        active.send(#"{"op":"ping","id":2}"# + "\n")
        #expect(active.lines(1).first == #"{"type":"reply","id":2,"ok":true,"pong":true}"#)
    }

    @Test("a client that pipelines requests and never reads is closed once its replies waited a whole timeout")
    func stalledClientClosed() throws {
        let daemon = try DaemonProcess(
            arguments: [], config: #"{"clients": {"idleTimeoutSeconds": 1, "queueBytes": 65536}}"#)
        defer { daemon.stop() }
        let stalled = try HostileClientTests.RawPeer(daemon.socket)
        let requests = String(repeating: #"{"op":"ping"}"# + "\n", count: 20000)
        var flags = fcntl(stalled.fd, F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(stalled.fd, F_SETFL, flags)
        stalled.send(requests)
        // Closed one timeout after its replies stopped draining; allow for a loaded machine.
        for _ in 0..<500 where !daemon.log.contains("did not read its replies") { usleep(20_000) }
        #expect(daemon.log.contains("did not read its replies for 1 s"))
    }

    @Test("idle connections of others cannot take the connections kept for root and the scene groups")
    func reservedConnections() throws {
        let daemon = try DaemonProcess(
            arguments: [],
            config: #"{"socket": {"mode": "0666"}, "clients": {"max": 6, "reserved": 2, "sceneGroups": ["60010"]}}"#
        )
        defer { daemon.stop() }
        // Four plain users fill what is theirs; the fifth is refused.
        let holder = """
            import json, socket, sys, time
            held = []
            for i in range(int(sys.argv[2])):
                s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); held.append(s)
                print(json.loads(s.makefile('rb').readline())["type"], flush=True)
            time.sleep(float(sys.argv[3]))
            """
        let output = daemon.directory + "/holder.out"
        let holders = try DaemonProcess.start(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", holder, daemon.socket,
                "5", "3",
            ],
            stdout: output)
        defer { holders.waitUntilExit() }
        for _ in 0..<100
        where ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").count < 5 {
            usleep(20_000)
        }
        let seen = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(seen == ["hello", "hello", "hello", "hello", "goodbye"])
        #expect(
            daemon.log.contains("the limit of 4 clients is reached (2 more are kept for root and the scene groups)"))
        // Root still gets in, twice; a member of the scene group would too.
        let first = try TouchClient(path: daemon.socket)
        let second = try TouchClient(path: daemon.socket)
        #expect(try first.ping() && second.ping())
        #expect(throws: ClientError.self) { _ = try TouchClient(path: daemon.socket) }
    }
}

@Suite(
    "The log tells a client's story in order",
    .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct ClientLogOrderTests {
    @Test("a client that closes at once is logged connected, then disconnected")
    func connectedBeforeDisconnected() throws {
        let daemon = try DaemonProcess(arguments: [])
        defer { daemon.stop() }
        // 30 clients, 60 lines: within the burst of connection lines logged in a second (the engine's throttle).
        for _ in 0..<30 { _ = try HostileClientTests.RawPeer(daemon.socket) }  // each closes as it goes
        for _ in 0..<500 where !daemon.log.contains("client 30 disconnected") { usleep(20_000) }
        let lines = daemon.log.split(separator: "\n")
        for id in 1...30 {
            let connected = lines.firstIndex { $0.contains("client \(id) connected") }
            let disconnected = lines.firstIndex { $0.contains("client \(id) disconnected") }
            #expect(connected != nil && disconnected != nil && connected! < disconnected!, "client \(id)")
        }
    }
}
