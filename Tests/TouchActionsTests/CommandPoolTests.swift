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
            case .terminate(let pid, _, let after): "term \(pid) after \(after / 1000)"
            case .kill(let pid, _, let after): "kill \(pid) after \(after / 1000)"
            }
        }
    }

    @Test("two run, two wait, the fifth is dropped; each end starts the oldest waiting")
    func bounds() {
        var pool = CommandPool(limits: Self.limits(running: 2, queued: 2))
        var log: [String] = []
        for rule in 0..<5 { log += describe(pool.submit(Self.job(rule))) }
        #expect(log == ["start 0", "start 1", "drop 4 (2 running, 2 queued)"])
        pool.started(Self.job(0), pid: 100, at: 0)
        pool.started(Self.job(1), pid: 101, at: 0)
        let (ended, next) = pool.exited(pid: 101)
        #expect(ended?.job.rule == 1)
        #expect(describe(next) == ["start 2"])
        #expect(pool.exited(pid: 999).0 == nil)  // not ours
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
        pool.started(Self.job(0, timeoutMs: 300), pid: 7, at: 1_000_000)
        pool.started(Self.job(1, timeoutMs: 0), pid: 8, at: 1_000_000)
        #expect(pool.nextDeadline == 1_300_000)
        #expect(pool.advance(to: 1_299_999).isEmpty)
        #expect(describe(pool.advance(to: 1_300_000)) == ["term 7 after 300"])
        #expect(pool.nextDeadline == 1_800_000)
        #expect(pool.advance(to: 1_700_000).isEmpty)
        #expect(describe(pool.advance(to: 1_800_000)) == ["kill 7 after 800"])
        #expect(pool.nextDeadline == nil)
        #expect(pool.advance(to: 9_000_000).isEmpty)
        let (ended, _) = pool.exited(pid: 7)
        #expect(ended?.terminatedAt == 1_300_000)
        #expect(ended?.killed == true)
    }

    @Test("stopping: the queue is forgotten, each running command gets SIGTERM once, SIGKILL after the grace")
    func stopping() {
        var pool = CommandPool(limits: Self.limits(running: 2, queued: 4, killAfterMs: 500))
        _ = pool.submit(Self.job(0, timeoutMs: 300))
        _ = pool.submit(Self.job(1, timeoutMs: 0))
        #expect(pool.submit(Self.job(2)).isEmpty)  // queued
        pool.started(Self.job(0, timeoutMs: 300), pid: 7, at: 1_000_000)
        pool.started(Self.job(1, timeoutMs: 0), pid: 8, at: 1_000_000)
        // Job 0 timed out already: its SIGTERM was at 1.3 s, and stopping does not send it a second time.
        #expect(describe(pool.advance(to: 1_300_000)) == ["term 7 after 300"])
        #expect(describe(pool.stop(at: 1_400_000)) == ["term 8 after 400"])
        #expect(pool.queued.isEmpty)
        #expect(pool.stop(at: 1_450_000).isEmpty)
        // Job 8 ends: the queued job 2 does not start.
        let (ended, next) = pool.exited(pid: 8)
        #expect(ended?.terminatedAt == 1_400_000)
        #expect(next.isEmpty)
        #expect(pool.nextDeadline == 1_800_000)
        #expect(describe(pool.advance(to: 1_800_000)) == ["kill 7 after 800"])
    }
}
