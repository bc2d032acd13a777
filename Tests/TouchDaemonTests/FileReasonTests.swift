import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(
    "Scene and configuration files that cannot be read say why",
    .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct FileReasonTests {
    static let demo = DaemonProcess.root + "/config/demo/panel.evemu"

    @Test("a directory or a missing file as the scene or the configuration: the reason, not 'cannot read the file'")
    func reasons() throws {
        let directory = try scratchDirectory("touchd-reasons")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let replayScene = try DaemonProcess.run(DaemonProcess.touchd, ["replay", Self.demo, "--scene", directory])
        #expect(replayScene.status != 0)
        #expect(replayScene.err.contains("\(directory): is a directory"), "\(replayScene.err)")
        let runScene = try DaemonProcess.run(
            DaemonProcess.touchd,
            ["run", "--socket", directory + "/s.sock", "--replay", Self.demo, "--scene", directory + "/none.json"])
        // No line and no JSON path: the file could not be read, and its name is followed by the reason alone.
        #expect(
            runScene.err.contains("\(directory)/none.json: cannot open: No such file or directory\n"), "\(runScene.err)"
        )
        #expect(runScene.status == 78)
        let runConfig = try DaemonProcess.run(
            DaemonProcess.touchd,
            ["run", "--socket", directory + "/s.sock", "--replay", Self.demo, "--config", directory])
        #expect(runConfig.err.contains("\(directory): is a directory\n"), "\(runConfig.err)")
        #expect(runConfig.status == 78)
    }
}
