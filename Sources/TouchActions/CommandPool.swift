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
/// up): at most `maximumRunning` run, at most `maximumQueued` wait, the rest are dropped; one that runs past its
/// timeout gets SIGTERM, and SIGKILL `killAfter` later. Each input returns what the caller must do.
///
/// | input | running < max | running = max, queue not full | both full |
/// |---|---|---|---|
/// | `submit` | `.start` | queued | `.drop` |
/// | `exited` / `startFailed` | `.finished`, then `.start` of the oldest waiting | | |
/// | `advance` past a timeout | `.terminate`; past timeout + killAfter: `.kill` | | |
/// | `stop` | `.terminate` for each running; the queue emptied | | |
public struct CommandPool {
    public enum Action: Equatable, Sendable {
        case start(CommandJob)
        case drop(CommandJob, running: Int, queued: Int)
        case terminate(pid: Int32, CommandJob, after: Int64)
        case kill(pid: Int32, CommandJob, after: Int64)
    }

    public struct Running: Equatable, Sendable {
        public var job: CommandJob
        public var startedAt: Int64
        /// SIGTERM was sent (the timeout passed).
        public var terminatedAt: Int64?
        public var killed = false
    }

    public let maximumRunning: Int
    public let maximumQueued: Int
    /// Microseconds between SIGTERM and SIGKILL.
    public let killAfter: Int64
    public private(set) var running: [Int32: Running] = [:]
    public private(set) var queued: [CommandJob] = []
    /// Started and not yet told `started` or `startFailed`: holds a place.
    private var starting = 0

    public init(limits: CommandLimits) {
        maximumRunning = limits.maximumRunning
        maximumQueued = limits.maximumQueued
        killAfter = limits.killAfterMilliseconds * 1000
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

    /// The caller started `job` as `pid` at `now` (monotonic microseconds).
    public mutating func started(_ job: CommandJob, pid: Int32, at now: Int64) {
        starting -= 1
        running[pid] = Running(job: job, startedAt: now)
    }

    /// The caller could not start `job`: its place goes to the next waiting.
    public mutating func startFailed(_ job: CommandJob) -> [Action] {
        starting -= 1
        return startWaiting()
    }

    /// A child ended: what it was (nil: not one of ours), and the next to start.
    public mutating func exited(pid: Int32) -> (Running?, [Action]) {
        guard let ended = running.removeValue(forKey: pid) else { return (nil, []) }
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

    /// Time is `now`: commands past their timeout are terminated, those past the grace after that killed.
    public mutating func advance(to now: Int64) -> [Action] {
        var actions: [Action] = []
        for pid in running.keys.sorted() {
            guard var command = running[pid] else { continue }
            if let terminatedAt = command.terminatedAt {
                if !command.killed && now >= terminatedAt + killAfter {
                    command.killed = true
                    actions.append(.kill(pid: pid, command.job, after: now - command.startedAt))
                }
            } else if command.job.timeout > 0 && now >= command.startedAt + command.job.timeout {
                command.terminatedAt = now
                actions.append(.terminate(pid: pid, command.job, after: now - command.startedAt))
            }
            running[pid] = command
        }
        return actions
    }

    /// Stopping at `now`: the waiting commands are forgotten (none starts once a running one ends), and every running
    /// one not yet told gets `.terminate`; `advance` then gives `.kill` for those still running `killAfter` later.
    public mutating func stop(at now: Int64) -> [Action] {
        queued.removeAll()
        var actions: [Action] = []
        for pid in running.keys.sorted() {
            guard var command = running[pid], command.terminatedAt == nil else { continue }
            command.terminatedAt = now
            running[pid] = command
            actions.append(.terminate(pid: pid, command.job, after: now - command.startedAt))
        }
        return actions
    }

    /// The next time `advance` has something to do.
    public var nextDeadline: Int64? {
        running.values.compactMap { command -> Int64? in
            if let terminatedAt = command.terminatedAt { return command.killed ? nil : terminatedAt + killAfter }
            return command.job.timeout > 0 ? command.startedAt + command.job.timeout : nil
        }.min()
    }
}
