import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Carries out the pool's decisions with real processes: starts commands (posix_spawn, no shell of its own), sends
/// the timeout's signals to their process groups, and logs each start, end, exit status, timeout and drop. Never
/// waits for a command: children are reaped when SIGCHLD arrives (`reap`), timeouts fire from the loop's timer.
public final class CommandRunner {
    public private(set) var pool: CommandPool
    private let logger: Logger
    private let baseEnvironment: [String]
    /// Drops are logged at most once a second (a rule on a busy gesture can cause hundreds a second); the ones held
    /// back are counted in the next line.
    private var lastDropLogged: Int64?
    private var dropsHeldBack = 0

    public init(limits: CommandLimits, logger: Logger, environment: [String] = Posix.environmentStrings) {
        pool = CommandPool(limits: limits)
        self.logger = logger
        // The gesture's variables replace any of the same name this process has.
        baseEnvironment = environment.filter { !$0.hasPrefix("TOUCHD_") || $0.hasPrefix("TOUCHD_SOCKET=") }
    }

    /// The job for a rule fired by an event.
    public func job(for rule: ActionRule, index: Int, report: GestureReport) -> CommandJob {
        CommandJob(
            rule: index, label: rule.label, arguments: rule.command.arguments,
            environment: baseEnvironment + report.environment.map { "\($0.name)=\($0.value)" },
            timeout: rule.timeoutMilliseconds * 1000)
    }

    public func submit(_ job: CommandJob) {
        perform(pool.submit(job))
    }

    /// Reaps every child that has ended (SIGCHLD coalesces: one signal may stand for several).
    public func reap() {
        while let (pid, exit) = Posix.reapChild() {
            let (ended, next) = pool.exited(pid: pid)
            if let ended { logEnd(pid: pid, ended, exit) }
            perform(next)
        }
    }

    /// The loop's timer fired (or any time): timeouts that are due.
    public func advance() {
        perform(pool.advance(to: MonotonicClock.nowMicroseconds()))
    }

    public var nextDeadline: Int64? { pool.nextDeadline }

    /// Stopping: every running command's process group gets SIGTERM (waiting ones are forgotten); `finish` then
    /// waits for them.
    public func terminateAll() {
        perform(pool.stop(at: MonotonicClock.nowMicroseconds()), stopping: true)
    }

    /// After `terminateAll`, before this process exits: waits for the commands to end, and sends SIGKILL to the
    /// groups of those still running `killAfterMs` after their SIGTERM. Outside systemd nothing else would end a
    /// command that ignores SIGTERM (under systemd the unit's cgroup is killed anyway). A child that outlives even
    /// SIGKILL for a second (stuck in the kernel) is logged and left.
    public func finish() {
        while !pool.running.isEmpty {
            reap()
            let now = MonotonicClock.nowMicroseconds()
            perform(pool.advance(to: now))
            guard !pool.running.isEmpty else { break }
            let stuck = pool.running.values.allSatisfy { command in
                command.killed && now >= (command.terminatedAt ?? now) + pool.killAfter + 1_000_000
            }
            if stuck {
                let pids = pool.running.keys.sorted().map(String.init).joined(separator: ", ")
                logger.error("pid(s) \(pids) still running a second after SIGKILL; leaving them")
                return
            }
            // Children end at their own pace: a short sleep between looks (this process is exiting; no event waits).
            usleep(10_000)
        }
    }

    private func perform(_ actions: [CommandPool.Action], stopping: Bool = false) {
        var work = actions
        while !work.isEmpty {
            let action = work.removeFirst()
            switch action {
            case .start(let job):
                do {
                    let pid = try Posix.spawn(job.arguments, environment: job.environment)
                    pool.started(job, pid: pid, at: MonotonicClock.nowMicroseconds())
                    logger.info("\(job.label): started pid \(pid): \(Self.describe(job.arguments))")
                } catch {
                    logger.error("\(job.label): cannot start \(Self.describe(job.arguments)): \(error)")
                    work += pool.startFailed(job)
                }
            case .drop(let job, let running, let queued):
                let now = MonotonicClock.nowMicroseconds()
                if let last = lastDropLogged, now - last < 1_000_000 {
                    dropsHeldBack += 1
                    break
                }
                let more = dropsHeldBack > 0 ? " (and \(dropsHeldBack) more dropped since the last such line)" : ""
                logger.warning(
                    "\(job.label): dropped, \(running) command(s) running and \(queued) waiting (commands.maxQueued)"
                        + more)
                lastDropLogged = now
                dropsHeldBack = 0
            case .terminate(let pid, let job, let after) where stopping:
                logger.info("\(job.label): stopping, so pid \(pid) gets SIGTERM (after \(after / 1000) ms)")
                Posix.signalGroup(pid, Signal.terminate)
            case .terminate(let pid, let job, let after):
                logger.warning("\(job.label): pid \(pid) still running after \(after / 1000) ms: SIGTERM")
                Posix.signalGroup(pid, Signal.terminate)
            case .kill(let pid, let job, let after):
                logger.warning("\(job.label): pid \(pid) still running \(after / 1000) ms after its start: SIGKILL")
                Posix.signalGroup(pid, Signal.kill)
            }
        }
    }

    private func logEnd(pid: Int32, _ ended: CommandPool.Running, _ exit: ChildExit) {
        let milliseconds = (MonotonicClock.nowMicroseconds() - ended.startedAt) / 1000
        let line = "\(ended.job.label): pid \(pid) ended after \(milliseconds) ms: \(exit)"
        if exit == .exited(0) {
            logger.info(line)
        } else {
            logger.warning(line + (ended.terminatedAt != nil ? " (timed out)" : ""))
        }
    }

    /// The command as a person would type it: arguments with spaces or quotes in single quotes.
    static func describe(_ arguments: [String]) -> String {
        arguments.map { argument in
            let plain =
                !argument.isEmpty && argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
            return plain
                ? argument
                : "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
                    + "'"
        }.joined(separator: " ")
    }
}
