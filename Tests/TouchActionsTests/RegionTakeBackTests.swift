import Foundation
import Testing
import TouchClient

#if canImport(Glibc)
    import Glibc
#endif

/// A region of the actions file already in the scene when touchd-actions connects (left by a
/// touchd-actions killed while touchd could not remove it, or added by another client): touchd-actions takes it
/// back instead of failing with a duplicate id and exit 78, against a real debug touchd.
@Suite(
    "touchd-actions: its regions left in the scene", .serialized,
    .enabled(if: ActionsBench.built, "touchd and touchd-actions must be built first (swift build)"))
struct RegionTakeBackTests {
    static let file = """
        {"regions": [{"id": "right-edge", "frame": [1240, 0, 40, 800], "gestures": [{"type": "swipe"}]}],
         "rules": [{"region": "right-edge", "gesture": "swipe", "run": ["true"]}]}
        """

    /// Adds `regions` (JSON objects) for good, as another client, and closes.
    static func leave(_ regions: [String], socket: String) throws {
        let client = try TouchClient(path: socket, retry: .init(attempts: 10))
        for region in regions {
            let reply = try client.request(op: "add-region") { $0.rawField("region", Array(region.utf8)) }
            #expect(reply.ok, "\(reply.errorMessage ?? "")")
        }
    }

    @Test("right-edge left in the scene: taken back with the file's frame, as this connection's (SIGKILL removes it)")
    func takesBackLeftover() throws {
        let bench = try ActionsBench()
        try bench.startDaemon(swiping: false)
        try Self.leave(
            [
                #"{"id": "right-edge", "frame": [1000, 0, 280, 800], "gestures": ["tap"]}"#,
                #"{"id": "other", "frame": [0, 0, 100, 100], "gestures": ["tap"]}"#,
            ], socket: bench.socket)
        try bench.startActions(Self.file)
        #expect(
            bench.waitFor(seconds: 5) { bench.lines(bench.actionsLog).contains { $0.contains("connected to touchd") } },
            "\(bench.lines(bench.actionsLog))")
        #expect(bench.actions?.isRunning == true)
        #expect(
            bench.lines(bench.actionsLog).contains {
                $0.contains("region 'right-edge'") && $0.hasSuffix("taking it back")
            })
        // The file's definition, and only regions of the file touched.
        #expect(try bench.sceneRegions() == ["right-edge": [1240, 0, 40, 800], "other": [0, 0, 100, 100]])
        // Now this connection's transient region: it goes when touchd-actions dies.
        kill(bench.actions!.processIdentifier, SIGKILL)
        #expect(bench.waitFor(seconds: 5) { (try? bench.sceneRegions()) == ["other": [0, 0, 100, 100]] })
    }

    /// touchd refuses to remove a region another region's relation names: the one there stays (its rules still
    /// match it by id), and touchd-actions runs on rather than exit.
    @Test("a leftover that touchd will not remove (another region's requireToFail names it) stays; no exit")
    func keepsWhatCannotBeRemoved() throws {
        let bench = try ActionsBench()
        try bench.startDaemon(swiping: false)
        try Self.leave(
            [
                #"{"id": "right-edge", "frame": [1240, 0, 40, 800], "gestures": ["swipe"]}"#,
                #"{"id": "other", "frame": [0, 0, 100, 100], "gestures": [{"type": "swipe", "requireToFail": ["right-edge/swipe"]}]}"#,
            ], socket: bench.socket)
        try bench.startActions(Self.file)
        #expect(
            bench.waitFor(seconds: 5) { bench.lines(bench.actionsLog).contains { $0.contains("connected to touchd") } },
            "\(bench.lines(bench.actionsLog))")
        #expect(bench.lines(bench.actionsLog).contains { $0.contains("touchd refused to remove it") })
        #expect(bench.actions?.isRunning == true)
        #expect(try bench.sceneRegions().keys.sorted() == ["other", "right-edge"])
        #expect(bench.stopActions() == 0)
    }
}
