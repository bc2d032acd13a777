import Foundation
import Testing
import TouchClient
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Daemon restart", .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct RestartTests {
    /// A daemon killed outright (SIGKILL: no cleanup) leaves its socket file behind; the next one reclaims it,
    /// and a client that retries (the library's retry policy) connects to the new one.
    @Test("a killed daemon's socket is reclaimed by the next, and a retrying client reconnects")
    func restartUnderLoad() throws {
        let root = DaemonProcess.root
        let arguments = [
            "--replay", root + "/config/demo/panel.evemu", "--scene", root + "/config/demo/scene.json", "--loop",
            "--speed", "10",
        ]
        let first = try DaemonProcess(arguments: arguments)
        let client = try TouchClient(path: first.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["touch"]).ok)
        var before = 0
        while before < 50, case .touch? = try client.next() { before += 1 }
        #expect(before == 50)

        first.signal(SIGKILL)
        first.process.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: first.socket))  // left behind
        // The old connection ends: next() reads what was in flight, then nil.
        var inFlight = 0
        while try client.next() != nil { inFlight += 1 }
        #expect(inFlight < 100_000)

        // The second daemon starts a moment later, on the same path; the client is already retrying.
        let path = first.socket
        let restart = Thread {
            usleep(300_000)
            let second = Process()
            second.executableURL = URL(fileURLWithPath: DaemonProcess.touchd)
            second.arguments = ["run", "--socket", path] + arguments
            second.standardError = FileHandle.nullDevice
            try? second.run()
            second.waitUntilExit()
        }
        restart.start()
        let again = try TouchClient(
            path: path, retry: .init(attempts: 40, initialDelayMilliseconds: 20, maximumDelayMilliseconds: 200))
        #expect(try again.subscribe(events: ["touch"]).ok)
        var after = 0
        while after < 50, case .touch? = try again.next() { after += 1 }
        #expect(after == 50)
        // Stop the second daemon (found by its socket's peer).
        let pid = try #require(Self.peerPID(path))
        kill(pid, SIGTERM)
        usleep(300_000)
        #expect(!FileManager.default.fileExists(atPath: path))  // a clean stop removes it
        first.stop()
    }

    static func peerPID(_ path: String) -> Int32? {
        guard
            let line = try? DaemonProcess.run("/usr/bin/pgrep", ["-f", "touchd run --socket \(path)"]).out.split(
                separator: "\n"
            ).first
        else { return nil }
        return Int32(line)
    }
}
