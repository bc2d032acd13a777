/// A command waiting or running: what to start and why.
public struct CommandJob: Sendable, Equatable {
    public var rule: Int
    /// `rules[2] (swipe ended on left-edge)`.
    public var label: String
    public var arguments: [String]
    /// `NAME=value` strings: this process's environment with the gesture's `TOUCHD_…` variables.
    public var environment: [String]
    /// Microseconds; 0: no limit.
    public var timeout: Int64

    public init(rule: Int, label: String, arguments: [String], environment: [String], timeout: Int64) {
        self.rule = rule
        self.label = label
        self.arguments = arguments
        self.environment = environment
        self.timeout = timeout
    }
}

/// The bounded pool of commands, as a state machine without processes or a clock (pure, tested with times made
/// up). A command is its whole process group (the group its first process leads, keyed by that pid): it holds its
/// place from its start until the caller reports the group empty (`groupEmptied`), not just until its first
/// process exits, so `sh -c 'sleep 30 & echo bg'` runs, times out and is stopped as one command.
///
/// At most `maximumRunning` run, at most `maximumQueued` wait, the rest are dropped; one that runs past its
/// timeout gets SIGTERM (the group), SIGKILL (the group) `killAfter` later if any of it still lives, and is given
/// up `abandonAfter` after that (a member stuck in the kernel, or a zombie whose parent has left the group and
/// does not reap it, would otherwise hold the place for good). Each input returns what the caller must do.
///
/// | input | running < max | running = max, queue not full | both full |
/// |---|---|---|---|
/// | `submit` | `.start` | queued | `.drop` |
/// | `groupEmptied` / `startFailed` | `.start` of the oldest waiting | | |
/// | `advance` past a timeout | `.terminate`; past + killAfter: `.kill`; past that + abandonAfter: `.abandon` | | |
/// | `stop` | `.terminate` for each running; the queue emptied | | |
public struct CommandPool {
    public enum Action: Equatable, Sendable {
        case start(CommandJob)
        case drop(CommandJob, running: Int, queued: Int)
        /// SIGTERM to the process group; `after`: microseconds since the command started.
        case terminate(group: Int32, CommandJob, after: Int64)
        /// SIGKILL to the process group.
        case kill(group: Int32, CommandJob, after: Int64)
        /// The group outlived its SIGKILL by `abandonAfter`: it no longer counts (and is no longer waited for).
        case abandon(group: Int32, CommandJob, after: Int64)
    }

    public struct Running: Equatable, Sendable {
        public var job: CommandJob
        public var startedAt: Int64
        /// The group's leader (the process started) exited; others of the group may live on.
        public var leaderEndedAt: Int64?
        /// A look after the leader's end still found members of its group (so its end is not the leader's).
        public var outlivedLeader = false
        /// SIGTERM was sent (the timeout passed, or stopping).
        public var terminatedAt: Int64?
        /// The SIGTERM was the stop's, not the timeout's.
        public var stopped = false
        public var killedAt: Int64?
    }

    public let maximumRunning: Int
    public let maximumQueued: Int
    /// Microseconds between SIGTERM and SIGKILL.
    public let killAfter: Int64
    /// Microseconds between SIGKILL and giving the group up.
    public let abandonAfter: Int64
    /// Microseconds between looks at groups whose leader has ended: a member whose parent is outside the group
    /// (it left with setsid) ends without a SIGCHLD here, so only a look tells the group has emptied.
    public let lookInterval: Int64
    /// By process group id (the leader's pid).
    public private(set) var running: [Int32: Running] = [:]
    public private(set) var queued: [CommandJob] = []
    /// Started and not yet told `started` or `startFailed`: holds a place.
    private var starting = 0
    private var lastLook: Int64?

    public init(limits: CommandLimits, abandonAfter: Int64 = 1_000_000, lookInterval: Int64 = 1_000_000) {
        maximumRunning = limits.maximumRunning
        maximumQueued = limits.maximumQueued
        killAfter = limits.killAfterMilliseconds * 1000
        self.abandonAfter = abandonAfter
        self.lookInterval = lookInterval
    }

    private var occupied: Int { running.count + starting }

    /// A command to run: start it, queue it or drop it.
    public mutating func submit(_ job: CommandJob) -> [Action] {
        if occupied < maximumRunning {
            starting += 1
            return [.start(job)]
        }
        guard queued.count < maximumQueued else {
            return [.drop(job, running: occupied, queued: queued.count)]
        }
        queued.append(job)
        return []
    }

    /// The caller started `job` as the leader of process group `group` at `now` (monotonic microseconds).
    public mutating func started(_ job: CommandJob, group: Int32, at now: Int64) {
        starting -= 1
        running[group] = Running(job: job, startedAt: now)
    }

    /// The caller could not start `job`: its place goes to the next waiting.
    public mutating func startFailed(_ job: CommandJob) -> [Action] {
        starting -= 1
        return startWaiting()
    }

    /// A child of the caller ended: if it led a command's group, that command (which still runs until
    /// `groupEmptied`); nil for any other pid (an orphaned member of a group, reparented to the caller).
    public mutating func leaderEnded(pid: Int32, at now: Int64) -> Running? {
        guard var command = running[pid], command.leaderEndedAt == nil else { return nil }
        command.leaderEndedAt = now
        running[pid] = command
        return command
    }

    /// Groups whose leader has ended: the caller looks whether any of each still lives (before `advance`) and
    /// reports those that do not with `groupEmptied`. While a leader lives, its group is not empty.
    public var lingering: [Int32] {
        running.filter { $0.value.leaderEndedAt != nil }.keys.sorted()
    }

    /// A look found members of `group` after its leader ended.
    public mutating func groupOutlivedLeader(_ group: Int32) {
        running[group]?.outlivedLeader = true
    }

    /// No process of `group` is left: the command is over (nil: not one of ours), and the next to start.
    public mutating func groupEmptied(_ group: Int32) -> (Running?, [Action]) {
        guard let ended = running.removeValue(forKey: group) else { return (nil, []) }
        return (ended, startWaiting())
    }

    private mutating func startWaiting() -> [Action] {
        var actions: [Action] = []
        while occupied < maximumRunning, !queued.isEmpty {
            starting += 1
            actions.append(.start(queued.removeFirst()))
        }
        return actions
    }

    /// Time is `now` (the caller has just looked at the `lingering` groups): commands past their timeout are
    /// terminated, those past the grace after that killed, those past `abandonAfter` after SIGKILL given up.
    public mutating func advance(to now: Int64) -> [Action] {
        lastLook = now
        var actions: [Action] = []
        var freed = false
        for group in running.keys.sorted() {
            guard var command = running[group] else { continue }
            let after = now - command.startedAt
            if let killedAt = command.killedAt {
                if now >= killedAt + abandonAfter {
                    running[group] = nil
                    freed = true
                    actions.append(.abandon(group: group, command.job, after: after))
                }
                continue
            }
            if let terminatedAt = command.terminatedAt {
                if now >= terminatedAt + killAfter {
                    command.killedAt = now
                    actions.append(.kill(group: group, command.job, after: after))
                }
            } else if command.job.timeout > 0 && now >= command.startedAt + command.job.timeout {
                command.terminatedAt = now
                actions.append(.terminate(group: group, command.job, after: after))
            }
            running[group] = command
        }
        if freed { actions += startWaiting() }
        return actions
    }

    /// Stopping at `now`: the waiting commands are forgotten (none starts once a running one ends), and every running
    /// one not yet told gets `.terminate`; `advance` then gives `.kill` for those still running `killAfter` later,
    /// and `.abandon` for any that outlive that: the stop ends within killAfter + abandonAfter.
    public mutating func stop(at now: Int64) -> [Action] {
        queued.removeAll()
        var actions: [Action] = []
        for group in running.keys.sorted() {
            guard var command = running[group], command.terminatedAt == nil else { continue }
            command.terminatedAt = now
            command.stopped = true
            running[group] = command
            actions.append(.terminate(group: group, command.job, after: now - command.startedAt))
        }
        return actions
    }

    /// The next time `advance` has something to do (or the lingering groups are due a look).
    public var nextDeadline: Int64? {
        var deadlines = running.values.compactMap { command -> Int64? in
            if let killedAt = command.killedAt { return killedAt + abandonAfter }
            if let terminatedAt = command.terminatedAt { return terminatedAt + killAfter }
            return command.job.timeout > 0 ? command.startedAt + command.job.timeout : nil
        }
        if let lastLook, running.values.contains(where: { $0.leaderEndedAt != nil }) {
            deadlines.append(lastLook + lookInterval)
        }
        return deadlines.min()
    }
}
