import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command in a private mount namespace whose /proc is mounted `hidepid=invisible`, as the shipped unit's
/// `ProtectProc=invisible` does, then as uid/gid 65534 (the daemon's side of the test).
private let hiddenProcAsNobody = [
    "/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c",
    #"mount -t proc -o hidepid=invisible proc /proc && exec /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "$@""#,
    "sh",
]

private let canRunHiddenProc: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
        FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
        FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd),
        let probe = try? DaemonProcess.run(hiddenProcAsNobody[0], Array(hiddenProcAsNobody.dropFirst()) + ["true"])
    else { return false }
    return probe.status == 0
}()

/// Sets a scene as uid 65533 with the given setpriv group options; prints the reply line.
private func setSceneAs(groups: [String], socket: String) throws -> String {
    let script = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
        f.readline()
        f.write(b'{"op":"set-scene","id":7,"scene":{"size":[10,10]}}\\n'); f.flush()
        print(f.readline().decode().strip())
        """
    let result = try DaemonProcess.run(
        "/usr/bin/setpriv", ["--reuid=65533", "--regid=65533"] + groups + ["/usr/bin/python3", "-c", script, socket])
    return result.out + result.err
}

@Suite(
    "Permissions by supplementary group, with /proc hidden as under the shipped unit", .serialized,
    .enabled(if: canRunHiddenProc, "needs root, unshare, setpriv, a procfs mount and a built touchd"))
struct PeerGroupsTests {
    @Test("the daemon's side really cannot read another user's /proc/PID/status there")
    func procIsHidden() throws {
        let result = try DaemonProcess.run(
            hiddenProcAsNobody[0], Array(hiddenProcAsNobody.dropFirst()) + ["/bin/cat", "/proc/1/status"])
        #expect(result.status != 0)
    }

    @Test("a member of a scene group by supplementary group only may change the scene; a non-member may not")
    func supplementaryGroupGrantsSceneChanges() throws {
        let directory = try scratchDirectory("touchd-groups", mode: 0o777)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try DaemonProcess(
            arguments: [], config: #"{"socket": {"mode": "0666"}, "clients": {"sceneGroups": ["60010"]}}"#,
            socket: directory + "/touchd.sock", launcher: hiddenProcAsNobody)
        defer { daemon.stop() }
        let member = try setSceneAs(groups: ["--groups=60010"], socket: daemon.socket)
        #expect(member == #"{"type":"reply","id":7,"ok":true,"version":2}"# + "\n")
        let outsider = try setSceneAs(groups: ["--clear-groups"], socket: daemon.socket)
        #expect(outsider.contains(#""id":7,"ok":false,"error":{"code":"permission-denied""#))
        // A member of other groups, 60010 not among them, is still an outsider.
        let other = try setSceneAs(groups: ["--groups=60011,60012"], socket: daemon.socket)
        #expect(other.contains(#""code":"permission-denied""#))
    }
}
