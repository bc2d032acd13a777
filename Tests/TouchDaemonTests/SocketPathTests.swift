import Foundation
import Testing
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

private func fileMode(_ path: String) -> (mode: mode_t, uid: uid_t, gid: gid_t)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (info.st_mode, info.st_uid, info.st_gid)
}

private func startFails(socket: String) throws -> String {
    let result = try DaemonProcess.run(
        DaemonProcess.touchd, ["run", "--socket", socket, "--replay", DaemonProcess.root + "/config/demo/panel.evemu"],
        timeout: 10)
    #expect(result.status != 0)
    return result.err
}

@Suite(
    "The socket path: nothing of anyone else's is removed or changed", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct SocketPathTests {
    @Test("a regular file, a directory, a symlink or a FIFO at the socket path is refused and left as it was")
    func foreignFilesRefused() throws {
        let directory = try scratchDirectory("touchd-socket")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notes = directory + "/notes.txt"
        try "my notes\n".write(toFile: notes, atomically: false, encoding: .utf8)
        #expect(try startFails(socket: notes).contains("exists and is a regular file, not a socket"))
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")

        let target = directory + "/target"
        try "root's file\n".write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o600)
        symlink(target, directory + "/link.sock")
        #expect(try startFails(socket: directory + "/link.sock").contains("is a symbolic link, not a socket"))
        #expect(fileMode(directory + "/link.sock").map { $0.mode & S_IFMT } == S_IFLNK)
        #expect(fileMode(target).map { $0.mode & 0o777 } == 0o600)

        mkdir(directory + "/dir.sock", 0o755)
        #expect(try startFails(socket: directory + "/dir.sock").contains("is a directory, not a socket"))
        mkfifo(directory + "/fifo.sock", 0o644)
        #expect(try startFails(socket: directory + "/fifo.sock").contains("is a FIFO, not a socket"))
        #expect(fileMode(directory + "/fifo.sock").map { $0.mode & S_IFMT } == S_IFIFO)
    }

    @Test("a live socket is refused; a stale one of touchd's own user is reclaimed")
    func liveAndStaleSockets() throws {
        let first = try DaemonProcess(arguments: [])
        defer { first.stop() }
        #expect(try startFails(socket: first.socket).contains("another touchd is listening there"))
        // Killed without a chance to clean up: the socket file stays, and nothing answers there.
        first.signal(SIGKILL)
        first.process.waitUntilExit()
        #expect(fileMode(first.socket).map { $0.mode & S_IFMT } == S_IFSOCK)
        let second = try DaemonProcess(arguments: [], socket: first.socket)
        defer { second.stop() }
        #expect(second.process.isRunning)
    }

    @Test(
        "a stale socket of another user is not removed",
        .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func staleSocketOfAnotherUser() throws {
        let directory = try scratchDirectory("touchd-socket", mode: 0o1777)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/touchd.sock"
        // nobody binds a socket there and exits: a stale socket owned by uid 65534.
        let made = try DaemonProcess.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path,
            ])
        #expect(made.status == 0, "\(made.err)")
        #expect(try startFails(socket: path).contains("is a socket of uid 65534"))
        #expect(fileMode(path).map { $0.uid } == 65534)
    }

    @Test("a file that replaced the socket while touchd ran is still there after SIGTERM")
    func replacedSocketSurvivesShutdown() throws {
        let daemon = try DaemonProcess(arguments: [])
        let replacement = daemon.socket + ".new"
        try "not yours\n".write(toFile: replacement, atomically: false, encoding: .utf8)
        #expect(rename(replacement, daemon.socket) == 0)
        daemon.signal(SIGTERM)
        daemon.process.waitUntilExit()
        #expect(try String(contentsOfFile: daemon.socket, encoding: .utf8) == "not yours\n")
        #expect(daemon.log.contains("is no longer the socket touchd created; left in place"))
        daemon.stop()
    }

    @Test("touchd removes its own socket at exit and leaves no private directory behind")
    func cleanExit() throws {
        let daemon = try DaemonProcess(arguments: [])
        let directory = (daemon.socket as NSString).deletingLastPathComponent
        #expect(fileMode(daemon.socket).map { $0.mode & 0o777 } == 0o660)
        daemon.signal(SIGTERM)
        daemon.process.waitUntilExit()
        #expect(fileMode(daemon.socket) == nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            $0.hasPrefix(".touchd-")
        }
        #expect(leftovers.isEmpty)
        daemon.stop()
    }

    @Test("a missing socket group is a configuration error with file, line and path")
    func missingSocketGroup() throws {
        let directory = try scratchDirectory("touchd-socket")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/touchd.json"
        try "{\n  \"socket\": {\n    \"group\": \"no-such-group-xyz\"\n  }\n}\n".write(
            toFile: config, atomically: false, encoding: .utf8)
        let result = try DaemonProcess.run(
            DaemonProcess.touchd,
            [
                "run", "--config", config, "--socket", directory + "/s.sock", "--replay",
                DaemonProcess.root + "/config/demo/panel.evemu",
            ], timeout: 10)
        #expect(result.status != 0)
        #expect(result.err.contains("\(config):3: socket.group: no group 'no-such-group-xyz' on this system"))
    }

    /// In a world-writable directory without the sticky bit, another user races touchd's setup: every name that
    /// appears is renamed away and replaced with a symlink to a root-owned file. touchd either comes up with its
    /// socket as configured or fails cleanly; the target's mode and owner never change.
    @Test(
        "a symlink-swapping attacker in a world-writable, non-sticky directory changes nothing of root's",
        .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func symlinkSwapper() throws {
        let directory = try scratchDirectory("touchd-socket", mode: 0o777)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = try scratchDirectory("touchd-socket") + "/precious"
        defer { try? FileManager.default.removeItem(atPath: (target as NSString).deletingLastPathComponent) }
        try "root only\n".write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o600)
        let attacker = """
            import os, sys, time
            d, target, end = sys.argv[1], sys.argv[2], time.time() + float(sys.argv[3])
            n = 0
            while time.time() < end:
                for name in os.listdir(d):
                    if name.startswith('.touchd-') or name.startswith('s'):
                        try:
                            os.rename(os.path.join(d, name), os.path.join(d, 'moved-%d' % n)); n += 1
                            os.symlink(target, os.path.join(d, name))
                        except OSError:
                            pass
                for name in ('.touchd-guess', 's.sock'):
                    try: os.symlink(target, os.path.join(d, name))
                    except OSError: pass
            """
        let attackerOutput = directory + "/../attacker-\(getpid()).out"
        let swapper = try DaemonProcess.start(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", attacker, directory,
                target, "8",
            ],
            stdout: attackerOutput)
        defer {
            swapper.waitUntilExit()
            try? FileManager.default.removeItem(atPath: attackerOutput)
        }
        for round in 0..<12 {
            let socket = directory + "/s\(round).sock"
            let result = try DaemonProcess.run(
                DaemonProcess.touchd,
                [
                    "run", "--socket", socket, "--replay",
                    DaemonProcess.root + "/config/demo/panel.evemu", "--speed", "1000",
                ], timeout: 0.5)
            let info = try #require(fileMode(target))
            #expect(info.mode & 0o7777 == 0o600, "round \(round): \(result.err)")
            #expect(info.uid == 0 && info.gid == 0)
        }
        // touchd may or may not have come up in a round; the target is what must not change.
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "root only\n")
    }
}
