import Testing
import TouchActions

/// The pool's decisions with made-up pids and times (µs): starts up to the bound, queues up to the bound, drops
/// beyond it, starts the oldest waiting when one ends, and terminates then kills at the timeout and the grace.
@Suite("Actions: command pool")
struct CommandPoolTests {
    static func job(_ rule: Int, timeoutMs: Int64 = 1000) -> CommandJob {
        CommandJob(rule: rule, label: "rules[\(rule)]", arguments: ["true"], environment: [], timeout: timeoutMs * 1000)
    }

    static func limits(running: Int, queued: Int, killAfterMs: Int64 = 500) -> CommandLimits {
        var limits = CommandLimits()
        limits.maximumRunning = running
        limits.maximumQueued = queued
        limits.killAfterMilliseconds = killAfterMs
        return limits
    }

    /// Which rules an action list starts, drops, terminates or kills, as text.
    func describe(_ actions: [CommandPool.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .start(let job): "start \(job.rule)"
            case .drop(let job, let running, let queued): "drop \(job.rule) (\(running) running, \(queued) queued)"
            case .terminate(let group, _, let after): "term \(group) after \(after / 1000)"
            case .kill(let group, _, let after): "kill \(group) after \(after / 1000)"
            case .abandon(let group, _, let after): "abandon \(group) after \(after / 1000)"
            }
        }
    }

    @Test("two run, two wait, the fifth is dropped; each end starts the oldest waiting")
    func bounds() {
        var pool = CommandPool(limits: Self.limits(running: 2, queued: 2))
        var log: [String] = []
        for rule in 0..<5 { log += describe(pool.submit(Self.job(rule))) }
        #expect(log == ["start 0", "start 1", "drop 4 (2 running, 2 queued)"])
        pool.started(Self.job(0), group: 100, at: 0)
        pool.started(Self.job(1), group: 101, at: 0)
        #expect(pool.leaderEnded(pid: 101, at: 10) != nil)
        let (ended, next) = pool.groupEmptied(101)
        #expect(ended?.job.rule == 1)
        #expect(describe(next) == ["start 2"])
        #expect(pool.leaderEnded(pid: 999, at: 10) == nil)  // not ours: an orphan of some group
        #expect(pool.groupEmptied(999).0 == nil)
        #expect(describe(pool.startFailed(Self.job(2))) == ["start 3"])  // a place freed again
        #expect(pool.queued.isEmpty)
    }

    @Test("a place is held between start and started: a burst never runs more than the bound")
    func startingHoldsPlace() {
        var pool = CommandPool(limits: Self.limits(running: 1, queued: 0))
        #expect(describe(pool.submit(Self.job(0))) == ["start 0"])
        #expect(describe(pool.submit(Self.job(1))) == ["drop 1 (1 running, 0 queued)"])
    }

    @Test("past its timeout a command gets SIGTERM, past the grace SIGKILL, once each; deadlines say when")
    func timeouts() {
        var pool = CommandPool(limits: Self.limits(running: 4, queued: 0, killAfterMs: 500))
        _ = pool.submit(Self.job(0, timeoutMs: 300))
        _ = pool.submit(Self.job(1, timeoutMs: 0))  // no limit
        pool.started(Self.job(0, timeoutMs: 300), group: 7, at: 1_000_000)
        pool.started(Self.job(1, timeoutMs: 0), group: 8, at: 1_000_000)
        #expect(pool.nextDeadline == 1_300_000)
        #expect(pool.advance(to: 1_299_999).isEmpty)
        #expect(describe(pool.advance(to: 1_300_000)) == ["term 7 after 300"])
        #expect(pool.nextDeadline == 1_800_000)
        #expect(pool.advance(to: 1_700_000).isEmpty)
        #expect(describe(pool.advance(to: 1_800_000)) == ["kill 7 after 800"])
        #expect(pool.nextDeadline == 2_800_000)  // given up a second after SIGKILL
        let (ended, _) = pool.groupEmptied(7)
        #expect(ended?.terminatedAt == 1_300_000)
        #expect(ended?.killedAt == 1_800_000)
        #expect(pool.nextDeadline == nil)
        #expect(pool.advance(to: 9_000_000).isEmpty)
    }

    @Test("stopping: the queue is forgotten, each running command gets SIGTERM once, SIGKILL after the grace")
    func stopping() {
        var pool = CommandPool(limits: Self.limits(running: 2, queued: 4, killAfterMs: 500))
        _ = pool.submit(Self.job(0, timeoutMs: 300))
        _ = pool.submit(Self.job(1, timeoutMs: 0))
        #expect(pool.submit(Self.job(2)).isEmpty)  // queued
        pool.started(Self.job(0, timeoutMs: 300), group: 7, at: 1_000_000)
        pool.started(Self.job(1, timeoutMs: 0), group: 8, at: 1_000_000)
        // Job 0 timed out already: its SIGTERM was at 1.3 s, and stopping does not send it a second time.
        #expect(describe(pool.advance(to: 1_300_000)) == ["term 7 after 300"])
        #expect(describe(pool.stop(at: 1_400_000)) == ["term 8 after 400"])
        #expect(pool.queued.isEmpty)
        #expect(pool.stop(at: 1_450_000).isEmpty)
        // Job 8 ends: the queued job 2 does not start.
        let (ended, next) = pool.groupEmptied(8)
        #expect(ended?.terminatedAt == 1_400_000)
        #expect(next.isEmpty)
        #expect(pool.nextDeadline == 1_800_000)
        #expect(describe(pool.advance(to: 1_800_000)) == ["kill 7 after 800"])
    }

    /// `sh -c 'sleep 30 & echo bg'`: the shell exits at once, its sleep lives on in the group. Counting the leader
    /// alone freed the place at once (680 processes after 6 s with maxRunning 1) and never timed the sleep out.
    @Test("a command holds its place, and is timed out, until its whole group is empty, not just its leader")
    func groupOutlivesLeader() {
        var pool = CommandPool(limits: Self.limits(running: 1, queued: 1, killAfterMs: 500))
        #expect(describe(pool.submit(Self.job(0, timeoutMs: 300))) == ["start 0"])
        pool.started(Self.job(0, timeoutMs: 300), group: 7, at: 1_000_000)
        #expect(pool.submit(Self.job(1)).isEmpty)  // waits
        #expect(pool.leaderEnded(pid: 7, at: 1_010_000)?.job.rule == 0)
        #expect(pool.leaderEnded(pid: 7, at: 1_020_000) == nil)  // told once
        #expect(pool.lingering == [7])
        #expect(describe(pool.submit(Self.job(2))) == ["drop 2 (1 running, 1 queued)"])  // the place is still taken
        #expect(describe(pool.advance(to: 1_100_000)).isEmpty)
        #expect(pool.nextDeadline == 1_300_000)  // the timeout, before the next look at 2.1 s
        #expect(describe(pool.advance(to: 1_300_000)) == ["term 7 after 300"])
        #expect(describe(pool.advance(to: 1_800_000)) == ["kill 7 after 800"])
        let (ended, next) = pool.groupEmptied(7)
        #expect(ended?.leaderEndedAt == 1_010_000)
        #expect(describe(next) == ["start 1"])
        #expect(pool.lingering.isEmpty)
    }

    @Test("a group still there a second after SIGKILL is given up, and its place goes to the next waiting")
    func abandonsAfterKill() {
        var pool = CommandPool(limits: Self.limits(running: 1, queued: 1, killAfterMs: 500))
        _ = pool.submit(Self.job(0, timeoutMs: 300))
        pool.started(Self.job(0, timeoutMs: 300), group: 7, at: 0)
        #expect(pool.submit(Self.job(1)).isEmpty)
        #expect(describe(pool.advance(to: 300_000)) == ["term 7 after 300"])
        #expect(describe(pool.advance(to: 800_000)) == ["kill 7 after 800"])
        #expect(describe(pool.advance(to: 1_799_999)).isEmpty)
        #expect(describe(pool.advance(to: 1_800_000)) == ["abandon 7 after 1800", "start 1"])
        #expect(pool.running.isEmpty)
        #expect(pool.groupEmptied(7).0 == nil)  // gone already
    }

    @Test("while a leader has ended and its group lives, the pool asks to be woken for a look every lookInterval")
    func looksAtLingeringGroups() {
        var pool = CommandPool(limits: Self.limits(running: 2, queued: 0), lookInterval: 1_000_000)
        _ = pool.submit(Self.job(0, timeoutMs: 0))
        pool.started(Self.job(0, timeoutMs: 0), group: 7, at: 0)
        #expect(pool.advance(to: 100).isEmpty)
        #expect(pool.nextDeadline == nil)  // its leader lives: nothing to look at, no timeout
        _ = pool.leaderEnded(pid: 7, at: 5_000)
        #expect(pool.advance(to: 5_000).isEmpty)
        #expect(pool.nextDeadline == 1_005_000)
    }
}
