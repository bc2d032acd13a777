import Foundation
import Testing
import TouchClient
import TouchJSON
import TouchPosix
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

private let canDropPrivileges =
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    && FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)

/// A Python client run as `nobody` (uid/gid 65534) with setpriv: what an unprivileged peer gets.
private func asNobody(_ script: String, socket: String) throws -> String {
    let result = try DaemonProcess.run(
        "/usr/bin/setpriv",
        ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "python3", "-c", script, socket])
    return result.out + result.err
}

private let helloThenSetScene = """
    import json, socket, sys
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(sys.argv[1])
    except PermissionError:
        print("EACCES"); sys.exit(0)
    f = s.makefile("rwb")
    print(f.readline().decode().strip())
    f.write(b'{"op":"set-scene","id":1,"scene":{"size":[10,10]}}\\n{"op":"subscribe","id":2}\\n'); f.flush()
    print(f.readline().decode().strip())
    print(f.readline().decode().strip())
    """

@Suite("Socket permissions", .serialized, .enabled(if: canDropPrivileges, "needs root, setpriv and a built touchd"))
struct DaemonSecurityTests {
    @Test("a reader outside the scene groups may subscribe but not change the scene")
    func readerCannotChangeScene() throws {
        let daemon = try DaemonProcess(
            arguments: [], config: #"{"socket": {"mode": "0666"}, "clients": {"sceneGroups": ["root"]}}"#)
        defer { daemon.stop() }
        let output = try asNobody(helloThenSetScene, socket: daemon.socket)
        #expect(output.contains(#""permissions":{"subscribe":true,"scene":false}"#))
        #expect(
            output.contains(
                #"{"type":"reply","id":1,"ok":false,"error":{"code":"permission-denied","message":"uid 65534 may not change the scene"}}"#
            ))
        #expect(output.contains(#"{"type":"reply","id":2,"ok":true}"#))
        // root, in group root, may.
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(client.hello.mayChangeScene)
        #expect(try client.setScene(json: Array(#"{"size": [10, 10]}"#.utf8)).ok)
    }

    @Test("a peer outside the allowed groups is refused at connect")
    func outsiderRefused() throws {
        let daemon = try DaemonProcess(
            arguments: [], config: #"{"socket": {"mode": "0666"}, "clients": {"subscribeGroups": ["root"]}}"#)
        defer { daemon.stop() }
        let output = try asNobody(helloThenSetScene, socket: daemon.socket)
        #expect(
            output.contains(
                #"{"type":"goodbye","code":"permission-denied","message":"uid 65534 is not in the groups allowed to connect"}"#
            ))
        #expect(daemon.logWillContain("refused client"))
    }

    @Test("the socket file's mode keeps others out before touchd even sees them")
    func socketMode() throws {
        let daemon = try DaemonProcess(arguments: [], config: #"{"socket": {"mode": "0660", "group": "root"}}"#)
        defer { daemon.stop() }
        var info = stat()
        #expect(stat(daemon.socket, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o660)
        #expect(try asNobody(helloThenSetScene, socket: daemon.socket).contains("EACCES"))
    }
}

@Suite(
    "Hostile and broken clients", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct HostileClientTests {
    static let demo = DaemonProcess.root + "/config/demo/panel.evemu"
    static let scene = DaemonProcess.root + "/config/demo/scene.json"

    /// A raw socket that does what the test says and nothing more.
    final class RawPeer {
        let fd: Int32
        init(_ path: String) throws {
            let client = try TouchClientSocket.connect(path)
            fd = client
        }
        func send(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        /// Reads until `count` lines or EOF, with a timeout.
        func lines(_ count: Int, timeoutMilliseconds: Int32 = 3000) -> [String] {
            var result: [String] = []
            var partial: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while result.count < count {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, timeoutMilliseconds) > 0 else { break }
                let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard got > 0 else { break }
                for byte in buffer[0..<got] {
                    if byte == 10 {
                        result.append(String(decoding: partial, as: UTF8.self))
                        partial.removeAll()
                    } else {
                        partial.append(byte)
                    }
                }
            }
            return result
        }
        /// Reads everything until EOF (or the timeout); true when EOF came.
        func drainToEnd(timeoutMilliseconds: Int32 = 5000) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return false }
                let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if got <= 0 { return true }
            }
        }
        deinit { close(fd) }
    }

    /// While the demo loops at 20× speed: one client never reads, one sends garbage, one sends an oversized line,
    /// one leaves mid-message, and 100 connect at once past the client limit. A well-behaved client must get
    /// every touch in order, and the daemon must stay small.
    @Test("misbehaving clients get their documented treatment; a good client loses nothing")
    func hostileClients() throws {
        let daemon = try DaemonProcess(
            arguments: [
                "--replay", Self.demo, "--scene", Self.scene, "--loop", "--speed", "20", "--replay-waits", "2",
            ],
            config: #"{"clients": {"max": 40, "queueBytes": 65536, "maxLineBytes": 65536}}"#)
        defer { daemon.stop() }

        // The slow one: subscribes, never reads.
        let slow = try RawPeer(daemon.socket)
        slow.send(#"{"op":"subscribe"}"# + "\n")

        // Garbage and oversized lines get error replies, and the connection stays usable.
        let garbage = try RawPeer(daemon.socket)
        _ = garbage.lines(1)  // hello
        garbage.send("this is not json\n")
        garbage.send(Array(repeating: UInt8(ascii: "x"), count: 200_000) + [10])
        garbage.send(#"{"op":"ping","id":9}"# + "\n")
        let replies = garbage.lines(3)
        #expect(replies.count == 3)
        #expect(replies.first?.contains(#""code":"bad-json""#) == true)
        #expect(
            replies.dropFirst().first?.contains(
                #""code":"line-too-long","message":"a line of 200000 bytes exceeds the limit of 65536""#) == true)
        #expect(replies.last == #"{"type":"reply","id":9,"ok":true,"pong":true}"#)

        // One leaves in the middle of a request.
        do {
            let leaver = try RawPeer(daemon.socket)
            leaver.send(#"{"op":"subscr"#)
        }

        // A crowd: beyond the limit, each gets a goodbye.
        var crowd: [RawPeer] = []
        for _ in 0..<100 { crowd.append(try RawPeer(daemon.socket)) }
        let refusedCount = crowd.filter {
            $0.lines(1, timeoutMilliseconds: 2000).first?.contains("too-many-clients") == true
        }.count
        #expect(refusedCount >= 100 - 40)
        crowd.removeAll()
        usleep(300_000)  // the daemon notices the crowd leave

        // The good client: 12 loops of the demo's touches (10 touches, 169 touch events each).
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["touch"]).ok)
        var open: Set<Int> = []
        var ended: Set<Int> = []
        var downs = 0
        var lastFinger = 0
        var count = 0
        while count < 12 * 169, let message = try client.next() {
            guard case .touch(let touch) = message else { continue }
            count += 1
            #expect(!ended.contains(touch.finger), "an event after the finger ended")
            switch touch.phase {
            case "down":
                #expect(touch.finger > lastFinger, "finger ids go up")
                lastFinger = touch.finger
                open.insert(touch.finger)
                downs += 1
            case "up", "cancel":
                #expect(open.remove(touch.finger) != nil, "an end without a down")
                ended.insert(touch.finger)
            default:
                #expect(open.contains(touch.finger), "a move without a down")
            }
        }
        #expect(count == 12 * 169)
        #expect(downs >= 12 * 10 - 1)

        // The slow client was cut off once its queue overflowed; what it got ends in EOF.
        #expect(slow.drainToEnd())
        #expect(daemon.log.contains("did not read: its queue of 65536 bytes overflowed"))
        let rss = try #require(daemon.residentKilobytes)
        #expect(rss < 64 * 1024, "daemon RSS \(rss) kB")
    }
}

/// Connects a raw socket (for tests that misbehave on purpose).
enum TouchClientSocket {
    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw SystemError("connect", subject: path)
        }
        return fd
    }
}
