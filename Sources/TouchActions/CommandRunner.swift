import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Carries out the pool's decisions with real processes: starts commands (posix_spawn, no shell of its own), each
/// leading a process group of its own, and follows each group until none of it is left. This process is a child
/// subreaper (`Posix.becomeChildSubreaper`), so a command's processes orphaned by their parent are reparented here
/// and reaped here; after each reap, groups whose leader has ended are looked at (kill(-group, 0)), and one that
/// is empty frees its place. The timeout's and the stop's signals go to the whole group. Logs each start, end,
/// exit status, timeout and drop. Never waits for a command: children are reaped when SIGCHLD arrives (`reap`),
/// timeouts fire from the loop's timer.
public final class CommandRunner {
    public private(set) var pool: CommandPool
    private let logger: Logger
    private let baseEnvironment: [String]
    /// The exit of each group's leader, kept until the group is empty (the command's end is logged then).
    private var leaderExits: [Int32: ChildExit] = [:]
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

    /// Makes this process the one its commands' orphans are reparented to; before the first command starts. Nothing
    /// a command started is then left behind as another's child while touchd-actions runs.
    public func adoptOrphans() throws(SystemError) {
        try Posix.becomeChildSubreaper()
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

    /// Reaps every child that has ended (SIGCHLD coalesces: one signal may stand for several), leaders and the
    /// orphans reparented here alike, then looks whether their groups are empty.
    public func reap() {
        let now = MonotonicClock.nowMicroseconds()
        while let (pid, exit) = Posix.reapChild() {
            if let command = pool.leaderEnded(pid: pid, at: now) {
                leaderExits[pid] = exit
                // Its exit is logged with the command's end, once the group is empty.
                logger.debug("\(command.job.label): pid \(pid) is gone; looking for the rest of its process group")
            } else {
                logger.debug("reaped pid \(pid), a process of a command whose parent had exited")
            }
        }
        advance()
    }

    /// The loop's timer fired (or any time): groups that have emptied end, timeouts that are due fire.
    public func advance() {
        for group in pool.lingering {
            guard !Posix.processGroupHasMember(group) else {
                pool.groupOutlivedLeader(group)
                continue
            }
            let (ended, next) = pool.groupEmptied(group)
            if let ended { logEnd(group: group, ended) }
            perform(next)
        }
        perform(pool.advance(to: MonotonicClock.nowMicroseconds()))
    }

    public var nextDeadline: Int64? { pool.nextDeadline }

    /// Stopping: every running command's process group gets SIGTERM (waiting ones are forgotten); `finish` then
    /// waits for them.
    public func terminateAll() {
        perform(pool.stop(at: MonotonicClock.nowMicroseconds()), stopping: true)
    }

    /// After `terminateAll`, before this process exits: waits until every command's group is empty, and sends
    /// SIGKILL to the groups still there `killAfterMs` after their SIGTERM. Outside systemd nothing else would end
    /// a command that ignores SIGTERM (under systemd the unit's cgroup is killed anyway). A group that outlives
    /// even SIGKILL by a second (stuck in the kernel) is logged and left: the wait is bounded.
    public func finish() {
        while !pool.running.isEmpty {
            reap()
            guard !pool.running.isEmpty else { break }
            // Children end at their own pace: a short sleep between looks (this process is exiting; no event waits).
            Posix.sleep(microseconds: 10_000)
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
                    pool.started(job, group: pid, at: MonotonicClock.nowMicroseconds())
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
            case .terminate(let group, let job, let after) where stopping:
                logger.info(
                    "\(job.label): stopping, so pid \(group) gets SIGTERM, its group with it (after \(after / 1000) ms)"
                )
                Posix.signalGroup(group, Signal.terminate)
            case .terminate(let group, let job, let after):
                logger.warning(
                    "\(job.label): pid \(group) still running after \(after / 1000) ms (with its process group): SIGTERM"
                )
                Posix.signalGroup(group, Signal.terminate)
            case .kill(let group, let job, let after):
                logger.warning(
                    "\(job.label): pid \(group) still running \(after / 1000) ms after its start (with its process group): SIGKILL"
                )
                Posix.signalGroup(group, Signal.kill)
            case .abandon(let group, let job, let after):
                leaderExits[group] = nil
                logger.error(
                    "\(job.label): process group \(group) still has members \(after / 1000) ms after its start, "
                        + "\(pool.abandonAfter / 1000) ms after SIGKILL (stuck in the kernel, or a zombie whose parent "
                        + "left the group): no longer counted")
            }
        }
    }

    private func logEnd(group: Int32, _ ended: CommandPool.Running) {
        let now = MonotonicClock.nowMicroseconds()
        let exit = leaderExits.removeValue(forKey: group)
        let milliseconds = (now - ended.startedAt) / 1000
        var line =
            "\(ended.job.label): pid \(group) ended after \(milliseconds) ms: \(exit.map(String.init(describing:)) ?? "ended")"
        // Only when a look found the group still there: the time between the leader's reap and this line is
        // otherwise this process's own delay (a loaded machine), not the group's.
        if ended.outlivedLeader, let leaderEndedAt = ended.leaderEndedAt {
            line += " (the rest of its group \((now - leaderEndedAt) / 1000) ms later)"
        }
        if exit == .exited(0) && ended.terminatedAt == nil {
            logger.info(line)
        } else {
            logger.warning(line + (ended.terminatedAt == nil ? "" : ended.stopped ? " (stopped)" : " (timed out)"))
        }
    }

    /// The command as a person would type it: arguments with spaces or quotes in single quotes, control
    /// characters shown as `\u{…}` (the file's text must not forge log lines).
    static func describe(_ arguments: [String]) -> String {
        LogText.printable(
            arguments.map { argument in
                let plain =
                    !argument.isEmpty && argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
                return plain
                    ? argument
                    : "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
                        + "'"
            }.joined(separator: " "))
    }
}
