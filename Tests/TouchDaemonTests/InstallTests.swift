import Foundation
import Testing
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Install script", .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct InstallTests {
    @Test("installs everything under DESTDIR with the right modes, keeps configuration, uninstalls cleanly")
    func installAndUninstall() throws {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-destdir-\(getpid())")
            .path
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let script = SharedRecordings.repositoryRoot + "/scripts/install.sh"
        let environment = "DESTDIR=\(destination) TOUCHD_BIN_DIR=\(SharedRecordings.repositoryRoot)/.build/debug"
        let install = try DaemonProcess.run("/bin/sh", ["-c", "\(environment) \(script)"])
        #expect(install.status == 0, "\(install.err)")
        let expected = [
            "/usr/bin/touchd": 0o755, "/usr/bin/touchctl": 0o755, "/usr/lib/systemd/system/touchd.service": 0o644,
            "/usr/lib/systemd/system/touchd.socket": 0o644, "/usr/lib/udev/rules.d/60-touchd.rules": 0o644,
            "/usr/lib/sysusers.d/touchd.conf": 0o644, "/etc/touchd/touchd.json": 0o644, "/etc/touchd/scene.json": 0o644,
            "/usr/share/doc/touchd/deployment.md": 0o644, "/usr/bin/touchd-actions": 0o755,
            "/usr/lib/systemd/user/touchd-actions.service": 0o644, "/usr/share/doc/touchd/actions.md": 0o644,
            "/usr/share/doc/touchd/touchd.example.json": 0o644,
        ]
        for (path, mode) in expected {
            var info = stat()
            #expect(stat(destination + path, &info) == 0, "\(path) missing")
            #expect(Int(info.st_mode & 0o777) == mode, "\(path) mode")
        }
        // A changed configuration survives a second install.
        try "{}".write(toFile: destination + "/etc/touchd/touchd.json", atomically: true, encoding: .utf8)
        #expect(try DaemonProcess.run("/bin/sh", ["-c", "\(environment) \(script)"]).status == 0)
        #expect(try String(contentsOfFile: destination + "/etc/touchd/touchd.json", encoding: .utf8) == "{}")

        let uninstall = try DaemonProcess.run(
            "/bin/sh", ["-c", "DESTDIR=\(destination) \(script) --uninstall --purge"])
        #expect(uninstall.status == 0)
        let left =
            FileManager.default.enumerator(atPath: destination)?.allObjects.compactMap { $0 as? String }.filter {
                item in
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: destination + "/" + item, isDirectory: &isDirectory)
                return !isDirectory.boolValue
            } ?? []
        #expect(left.isEmpty, "\(left)")
    }
}
