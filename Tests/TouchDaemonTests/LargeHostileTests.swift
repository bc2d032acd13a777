import Foundation
import Testing
import TouchClient
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

@Suite(
    "Hostile clients at full size", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct LargeHostileTests {
    /// A 100 MB line is skipped as it streams in (never buffered), 1,000 connections beyond the limit are turned
    /// away, and a good client keeps receiving in order; the daemon's memory stays bounded.
    @Test("a 100 MB line and 1,000 connections: refused as documented, memory bounded, a good client unaffected")
    func fullSize() throws {
        let root = DaemonProcess.root
        let daemon = try DaemonProcess(
            arguments: [
                "--replay", root + "/config/demo/panel.evemu", "--scene", root + "/config/demo/scene.json", "--loop",
                "--speed", "20",
            ],
            config: #"{"clients": {"max": 64, "maxLineBytes": 1048576}}"#)
        defer { daemon.stop() }
        let good = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try good.subscribe(events: ["touch"]).ok)

        // 100 MB without a newline, then a newline and a ping.
        let flood = try HostileClientTests.RawPeer(daemon.socket)
        _ = flood.lines(1)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<100 { flood.send(chunk) }
        flood.send([10])
        flood.send(#"{"op":"ping","id":1}"# + "\n")
        let replies = flood.lines(2, timeoutMilliseconds: 10_000)
        #expect(
            replies.first?.contains(
                "\"code\":\"line-too-long\",\"message\":\"a line of 104857600 bytes exceeds the limit of 1048576\"")
                == true)
        #expect(replies.last == #"{"type":"reply","id":1,"ok":true,"pong":true}"#)
        let rssAfterFlood = try #require(daemon.residentKilobytes)
        #expect(rssAfterFlood < 64 * 1024, "RSS \(rssAfterFlood) kB after a 100 MB line")

        // 1,000 connections at once: all but the free places get a goodbye.
        var crowd: [HostileClientTests.RawPeer] = []
        for _ in 0..<1000 { crowd.append(try HostileClientTests.RawPeer(daemon.socket)) }
        var refused = 0
        var admitted = 0
        for peer in crowd {
            let first = peer.lines(1, timeoutMilliseconds: 3000).first ?? ""
            if first.contains("too-many-clients") { refused += 1 } else if first.contains("\"hello\"") { admitted += 1 }
        }
        #expect(admitted + refused == 1000)
        #expect(admitted <= 64 - 2)  // the good client and the flooder hold two places
        crowd.removeAll()
        let rssAfterCrowd = try #require(daemon.residentKilobytes)
        #expect(rssAfterCrowd < 64 * 1024, "RSS \(rssAfterCrowd) kB after 1,000 connections")

        // The good client got every touch in order throughout.
        var open: Set<Int> = []
        var count = 0
        while count < 2000, let message = try good.next() {
            guard case .touch(let touch) = message else { continue }
            count += 1
            switch touch.phase {
            case "down": #expect(open.insert(touch.finger).inserted)
            case "up", "cancel": #expect(open.remove(touch.finger) != nil)
            default: #expect(open.contains(touch.finger))
            }
        }
        #expect(count == 2000)
    }
}
