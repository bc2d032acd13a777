import Foundation
import Testing
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A command is its whole process tree (docs/actions.md), checked on real processes: touchd replays a swipe
/// from the right edge in a loop (one every 0.2 s), each swipe runs the rule's command in a real touchd-actions,
/// and the command writes the pids of what it leaves running to a marker file, which the test then watches in
/// /proc. Each test stays within a few seconds.
@Suite(
    "touchd-actions: a command's whole process tree", .serialized,
    .enabled(if: ActionsBench.built, "touchd and touchd-actions must be built first (swift build)"),
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct CommandTreeTests {
    /// An actions file with one rule on the looped swipe.
    static func actions(_ run: String, maxRunning: Int = 4, maxQueued: Int = 0, timeoutMs: Int, killAfterMs: Int)
        -> String
    {
        let line = run.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return """
            {"regions": [\(ActionsBench.screenRegion)],
             "commands": {"maxRunning": \(maxRunning), "maxQueued": \(maxQueued), "timeoutMs": \(timeoutMs),
                          "killAfterMs": \(killAfterMs)},
             "rules": [{"region": "screen", "gesture": "swipe", "shell": true, "run": "\(line)"}]}
            """
    }

    /// The shell exits at once and leaves its sleep behind in the group: only the group can be timed out.
    @Test("`sleep 30 & echo` with timeoutMs 500: the background sleep is timed out with its group")
    func backgroundChildTimesOut() throws {
        let bench = try ActionsBench()
        try bench.startDaemon(swiping: true)
        try bench.startActions(
            Self.actions("sleep 30 & echo $! >> '\(bench.marker)'", maxRunning: 1, timeoutMs: 500, killAfterMs: 300))
        #expect(bench.waitFor(seconds: 10) { !bench.markedPids.isEmpty })
        let sleep = try #require(bench.markedPids.first)
        #expect(ActionsBench.isLive(sleep))
        // SIGTERM at 500 ms ends it (sleep does not ignore TERM); a second's slack for a loaded machine.
        #expect(bench.waitFor(seconds: 2) { !ActionsBench.isLive(sleep) }, "pid \(sleep) outlived its timeout")
        #expect(
            bench.waitFor(seconds: 2) {
                bench.lines(bench.actionsLog).contains { $0.contains("ended after") && $0.hasSuffix("(timed out)") }
            }, "\(bench.lines(bench.actionsLog))")
        #expect(bench.lines(bench.actionsLog).contains { $0.contains("(with its process group): SIGTERM") })
        // The shell ended at once and its sleep half a second later: the end line tells the group outlived it.
        #expect(
            bench.lines(bench.actionsLog).contains {
                $0.contains("ended after") && $0.contains("exit status 0 (the rest of its group ")
            }, "\(bench.lines(bench.actionsLog))")
        #expect(bench.stopActions() == 0)
        #expect(bench.markedPids.allSatisfy { !ActionsBench.isLive($0) })
    }

    /// The leader (a shell waiting for its child) dies of the timeout's SIGTERM; its child ignores TERM, so the
    /// group lives on and gets SIGKILL after killAfterMs.
    @Test("a leader killed by the timeout's SIGTERM whose child ignores TERM: the child gets SIGKILL")
    func trappingChildIsKilled() throws {
        let bench = try ActionsBench()
        try bench.startDaemon(swiping: true)
        try bench.startActions(
            Self.actions(
                "sh -c \"trap '' TERM; exec sleep 30\" & echo $! >> '\(bench.marker)'; wait", maxRunning: 1,
                timeoutMs: 300, killAfterMs: 400))
        #expect(bench.waitFor(seconds: 10) { !bench.markedPids.isEmpty })
        let child = try #require(bench.markedPids.first)
        // Timeout 300 ms, SIGKILL 400 ms later: gone by 0.7 s from its start; slack for a loaded machine.
        #expect(bench.waitFor(seconds: 2.5) { !ActionsBench.isLive(child) }, "pid \(child) was never killed")
        let log = bench.lines(bench.actionsLog)
        #expect(log.contains { $0.contains("(with its process group): SIGKILL") }, "\(log)")
        #expect(bench.stopActions() == 0)
        #expect(bench.markedPids.allSatisfy { !ActionsBench.isLive($0) })
    }

    /// No timeout: only the stop ends them. One background sleep takes TERM; another, in a second command, ignores
    /// it and must get SIGKILL killAfterMs later, before touchd-actions exits.
    @Test("SIGTERM to touchd-actions: a command's background processes go, those ignoring TERM by SIGKILL")
    func stopReachesTheTree() throws {
        let bench = try ActionsBench()
        try bench.startDaemon(swiping: true)
        try bench.startActions(
            Self.actions(
                // The TERM-ignoring shell writes its own pid once its trap is set: a stop that came first would
                // end it at once, and the test would see no SIGKILL (seen under AddressSanitizer on a loaded machine).
                "sleep 30 & echo $! >> '\(bench.marker)'; "
                    + "sh -c \"trap '' TERM; echo \\$\\$ >> '\(bench.marker)'; exec sleep 30\" &",
                maxRunning: 1, timeoutMs: 0, killAfterMs: 400))
        #expect(bench.waitFor(seconds: 10) { bench.markedPids.count >= 2 })
        let pids = bench.markedPids
        #expect(pids.allSatisfy(ActionsBench.isLive))
        let stop = Date()
        #expect(bench.stopActions() == 0)
        let took = Date().timeIntervalSince(stop)
        // The stop waits for the TERM-ignoring sleep's SIGKILL (0.4 s) and no longer than the grace and a second.
        #expect(took >= 0.35 && took < 2.5, "the stop took \(took) s")
        let live = bench.markedPids.filter(ActionsBench.isLive)
        #expect(live.isEmpty, "outlived touchd-actions: \(live)")
        #expect(bench.lines(bench.actionsLog).contains { $0.contains("(with its process group): SIGKILL") })
    }

    /// Each swipe (every 0.2 s) runs a command that leaves a 1 s sleep behind. The leader exits at once: counted by
    /// its leader, every swipe started another (hundreds of sleeps in a few seconds). Counted by its group, one
    /// runs at a time, the swipes meanwhile are dropped, and at most one sleep lives at any moment.
    @Test("maxRunning 1, maxQueued 0, forking commands: one group at a time, nothing left after the stop")
    func forkingCommandsCountAsRunning() throws {
        let bench = try ActionsBench()
        try bench.startDaemon(swiping: true)
        try bench.startActions(
            Self.actions("sleep 1 & echo $! >> '\(bench.marker)'", maxRunning: 1, timeoutMs: 0, killAfterMs: 300))
        #expect(bench.waitFor(seconds: 10) { !bench.markedPids.isEmpty })
        var mostAlive = 0
        let end = Date().addingTimeInterval(3)
        while Date() < end {
            mostAlive = max(mostAlive, bench.markedPids.filter(ActionsBench.isLive).count)
            usleep(20_000)
        }
        let started = bench.lines(bench.actionsLog).filter { $0.contains("started pid") }.count
        #expect(mostAlive == 1)
        // 3 s of 1 s commands, one after another: 3 or 4 started (a swipe must come after each frees its place).
        #expect(started >= 2 && started <= 5, "\(started) started")
        #expect(bench.lines(bench.actionsLog).contains { $0.contains(": dropped, 1 command(s) running") })
        #expect(bench.stopActions() == 0)
        let live = bench.markedPids.filter(ActionsBench.isLive)
        #expect(live.isEmpty, "outlived touchd-actions: \(live)")
    }
}
