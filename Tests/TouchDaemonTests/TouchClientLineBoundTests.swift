import Foundation
import Testing
import TouchClient

#if canImport(Glibc)
    import Glibc
#endif

/// TouchClient against a peer on a real Unix socket that says hello and then sends a line that never ends: the
/// client must give up at its bound with a protocol error, not buffer the stream.
@Suite("TouchClient's bound on a line from touchd", .serialized)
struct TouchClientLineBoundTests {
    static let hello =
        #"{"type":"hello","protocol":1,"server":"endless","devices":[],"permissions":{"subscribe":true,"scene":true}}"#

    /// A Python peer: the hello, then `before` (whole lines), then `megabytes` MiB of `x` and no newline.
    func endlessPeer(before: String = "", megabytes: Int) throws -> (socket: String, stop: () -> Void) {
        let directory = try scratchDirectory("touchclient-endless")
        let socket = directory + "/endless.sock"
        let script = """
            import socket, sys, time
            l = socket.socket(socket.AF_UNIX); l.bind(sys.argv[1]); l.listen(1)
            c, _ = l.accept()
            c.sendall(sys.argv[2].encode() + b'\\n' + sys.argv[3].encode())
            try:
                for _ in range(int(sys.argv[4]) * 16): c.sendall(b'x' * 65536)
            except OSError:
                pass
            time.sleep(10)
            """
        let peer = try DaemonProcess.start(
            "/usr/bin/python3", ["-c", script, socket, Self.hello, before, "\(megabytes)"], stdout: directory + "/out")
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        return (
            socket,
            {
                kill(peer.processIdentifier, SIGKILL)  // it may be blocked in a send to the client that stopped
                peer.waitUntilExit()
                try? FileManager.default.removeItem(atPath: directory)
            }
        )
    }

    @Test("a line longer than maximumLineBytes fails the request waiting for its reply, before the timeout")
    func requestFailsAtTheBound() throws {
        let peer = try endlessPeer(megabytes: 4)
        defer { peer.stop() }
        let client = try TouchClient(path: peer.socket, timeoutMilliseconds: 5000, maximumLineBytes: 1 << 20)
        let started = Date()
        do {
            _ = try client.request(op: "ping")
            Issue.record("a reply came from a peer that sends none")
        } catch {
            #expect("\(error)" == "a line from touchd of more than 1048576 bytes, more than the client takes (1048576)")
        }
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test("the lines before the endless one are still delivered, then next() fails")
    func linesBeforeAreKept() throws {
        let peer = try endlessPeer(before: #"{"type":"frame","device":"d","time_us":7}"# + "\n", megabytes: 2)
        defer { peer.stop() }
        let client = try TouchClient(path: peer.socket, maximumLineBytes: 1 << 20)
        guard case .frame(let device, let time)? = try client.next() else {
            Issue.record("the frame line was not delivered first")
            return
        }
        #expect(device == "d" && time == 7)
        #expect(throws: ClientError.self) { _ = try client.next() }
    }

    @Test("the default bound is 64 MiB: a 65 MiB line without a newline fails")
    func defaultBound() throws {
        #expect(TouchClient.defaultMaximumLineBytes == 64 * 1024 * 1024)
        let peer = try endlessPeer(megabytes: 65)
        defer { peer.stop() }
        // The bound, not the timeout, must end the wait: 65 MiB through the framer takes over 20 s under
        // AddressSanitizer (CI's second run of the suite), so the timeout is far beyond that.
        let client = try TouchClient(path: peer.socket, timeoutMilliseconds: 300_000)
        do {
            _ = try client.request(op: "ping")
            Issue.record("a reply came from a peer that sends none")
        } catch {
            #expect("\(error)".hasPrefix("a line from touchd of more than 67108864 bytes"))
        }
    }
}
