import TouchClient
import TouchJSON
import TouchPosix

/// touchd-actions at work: one event loop over touchd's socket, SIGCHLD, SIGTERM/SIGINT and one timer (command
/// timeouts, reconnection). Gesture events go through the matcher to the command runner; nothing in the loop waits
/// for a command. The file's regions are added with `transient`, so touchd removes them when this connection
/// closes however it closes; a clean stop also removes them itself. If touchd goes away, it reconnects with
/// backoff and adds them again.
public final class ActionsService {
    public struct Settings: Sendable {
        public var socketPath: String
        /// The wait for touchd's hello and for each reply while connecting and stopping.
        public var requestTimeoutMilliseconds = 5_000
        public var reconnectInitialMilliseconds: Int64 = 250
        public var reconnectMaximumMilliseconds: Int64 = 10_000

        public init(socketPath: String) { self.socketPath = socketPath }
    }

    private let file: ActionsFile
    private let settings: Settings
    private let logger: Logger
    private let loop: EventLoop
    private let runner: CommandRunner
    private var matcher: Matcher
    private var signals: SignalSource?
    private var timer: LoopTimer?
    private var client: TouchClient?
    private var clientToken: UInt64?
    private var reconnectAt: Int64?
    private var reconnectDelay: Int64
    /// Consecutive failed attempts: the first of a run is a warning, the rest are debug lines.
    private var failedAttempts = 0
    private var exitStatus = ActionsExit.stopped

    public init(file: ActionsFile, settings: Settings, logger: Logger) throws(SystemError) {
        self.file = file
        self.settings = settings
        self.logger = logger
        loop = try EventLoop()
        runner = CommandRunner(limits: file.limits, logger: logger)
        matcher = Matcher(rules: file.rules)
        reconnectDelay = settings.reconnectInitialMilliseconds
    }

    /// Runs until SIGTERM or SIGINT (`ActionsExit.stopped`), or until touchd refuses what the file asks (the
    /// other `ActionsExit` statuses).
    public func run() throws(SystemError) -> Int32 {
        // SIGCHLD must not be ignored (as it may be on entry), or no command would be seen to end.
        Posix.reapsOwnChildren()
        try runner.adoptOrphans()
        // The signalfd first: SIGCHLD must be blocked before the first command starts, or its exit could be missed.
        signals = try SignalSource(
            loop: loop, signals: [Signal.terminate, Signal.interrupt, Signal.child]
        ) { [unowned self] signal in
            if signal == Signal.child {
                runner.reap()
                armTimer()
            } else {
                stop(signal: signal)
            }
        }
        timer = try LoopTimer(loop: loop) { [unowned self] in timerFired() }
        connect()
        if exitStatus == 0 { try loop.run() }
        runner.finish()
        return exitStatus
    }

    // MARK: Connection

    private func connect() {
        let path = settings.socketPath
        let connected: TouchClient
        do {
            connected = try TouchClient(path: path, timeoutMilliseconds: settings.requestTimeoutMilliseconds)
        } catch {
            scheduleReconnect("cannot reach touchd at \(path): \(error)")
            return
        }
        do {
            if !file.regions.isEmpty && !connected.hello.mayChangeScene {
                fail(
                    "touchd at \(path) does not let this user change the scene, so the file's regions cannot be added: "
                        + "the user must be root or in a group of clients.sceneGroups (docs/deployment.md)",
                    status: ActionsExit.noPermission)
                return
            }
            let kept = try takeBack(file.regions, through: connected)
            if let refusal = try add(file.regions.filter { !kept.contains($0.id) }, through: connected) {
                fail(refusal, status: ActionsExit.configuration)
                return
            }
            let subscribed = try connected.subscribe(events: ["gesture", "scene"])
            guard subscribed.ok else {
                fail(
                    "touchd refused the subscription: \(subscribed.errorMessage ?? "")", status: ActionsExit.unavailable
                )
                return
            }
            clientToken = try loop.register(connected.fileDescriptor, for: .readable) { [unowned self] _ in
                socketReadable()
            }
            client = connected
            matcher = Matcher(rules: file.rules)
            reconnectDelay = settings.reconnectInitialMilliseconds
            failedAttempts = 0
            logger.notice(
                "connected to \(connected.hello.server) at \(path): \(file.regions.count) region(s) added, "
                    + "\(file.rules.count) rule(s)")
            handle(try connected.takeBuffered())
        } catch let error as ClientError {
            closeConnection()
            scheduleReconnect("touchd at \(path) went away while connecting: \(error)")
        } catch {
            closeConnection()
            scheduleReconnect("cannot watch touchd's socket: \(error)")
        }
    }

    private func socketReadable() {
        guard let client else { return }
        do {
            guard let messages = try client.receiveAvailable() else {
                connectionLost("touchd closed the connection")
                return
            }
            handle(messages)
        } catch {
            connectionLost("\(error)")
        }
    }

    /// Adds regions with `transient`; returns why touchd refused one, or nil.
    private func add(_ regions: [ActionRegion], through client: TouchClient) throws(ClientError) -> String? {
        for region in regions {
            let reply = try client.request(op: "add-region") { writer in
                writer.field("transient", true)
                writer.rawField("region", region.json.compactJSON)
            }
            guard reply.ok else {
                let code = reply.errorCode ?? "error"
                let message = reply.errorMessage ?? ""
                let hint = message.contains("'transient'") ? " (this touchd is older than transient regions)" : ""
                return "touchd refused region '\(region.id)': \(code): \(message)\(hint)"
            }
        }
        return nil
    }

    /// Takes back the file's regions that are already in the scene, by id: a region an earlier touchd-actions left
    /// behind (killed while touchd could not remove it) or another client added would otherwise make `add-region`
    /// fail with a duplicate id. Each is removed, so that `add` puts the file's definition in its place as this
    /// connection's transient region; regions of other ids are never touched. One that touchd refuses to remove
    /// (another region's relation names it) stays as it is and is not added: its id is returned, and its rules
    /// match it by that id.
    private func takeBack(_ regions: [ActionRegion], through client: TouchClient) throws(ClientError) -> Set<String> {
        guard !regions.isEmpty else { return [] }
        let present = try sceneRegionIDs(through: client)
        var kept: Set<String> = []
        for region in regions where present.contains(region.id) {
            let reply = try client.request(op: "remove-region") { $0.field("region", region.id) }
            if reply.ok {
                logger.notice(
                    "region '\(LogText.printable(region.id))' of the actions file was already in the scene (left by an earlier "
                        + "touchd-actions, or added by another client): taking it back")
            } else {
                kept.insert(region.id)
                logger.warning(
                    "region '\(LogText.printable(region.id))' of the actions file is already in the scene and touchd "
                        + "refused to remove it: \(LogText.printable(reply.errorCode ?? "error")): "
                        + "\(LogText.printable(reply.errorMessage ?? "")); the one there stays, "
                        + "not this connection's, and the file's definition of it is not applied")
            }
        }
        return kept
    }

    /// The ids of every region in touchd's scene, children included.
    private func sceneRegionIDs(through client: TouchClient) throws(ClientError) -> Set<String> {
        let reply = try client.request(op: "get-scene")
        var present: Set<String> = []
        func collect(_ value: JSONValue?) {
            guard case .array(let regions, _)? = value else { return }
            for region in regions {
                if case .string(let id, _)? = region["id"] { present.insert(id) }
                collect(region["children"])
            }
        }
        collect(reply.json["scene"]?["regions"])
        return present
    }

    /// The scene changed under us (a reload of the scene file, another client's set-scene): a whole new scene
    /// leaves out the file's regions, so those missing are added again. Our own edits come back here too, and then
    /// find nothing missing.
    private func restoreRegions(after source: String, through client: TouchClient) throws(ClientError) {
        guard !file.regions.isEmpty else { return }
        let present = try sceneRegionIDs(through: client)
        let missing = file.regions.filter { !present.contains($0.id) }
        guard !missing.isEmpty else { return }
        if let refusal = try add(missing, through: client) {
            logger.error("after a scene change (\(source)): \(refusal)")
        } else {
            logger.notice("the scene changed (\(source)): \(missing.count) region(s) added again")
        }
    }

    private func handle(_ messages: [Message]) {
        var queue = messages[...]
        while let message = queue.popFirst() {
            switch message {
            case .sceneChanged(_, let source):
                guard let client else { return }
                do {
                    try restoreRegions(after: source, through: client)
                    // Events read with the replies come after the ones already in hand.
                    queue += try client.takeBuffered()
                } catch {
                    connectionLost("\(error)")
                    return
                }
            case .gesture(let gesture):
                guard let report = GestureReport(gesture.json) else { continue }
                for firing in matcher.handle(report) {
                    runner.submit(runner.job(for: file.rules[firing.rule], index: firing.rule, report: firing.report))
                }
            case .goodbye(let code, let text):
                connectionLost("touchd said goodbye: \(code): \(text)")
                return
            default:
                continue
            }
        }
        armTimer()
    }

    private func connectionLost(_ reason: String) {
        closeConnection()
        scheduleReconnect("lost touchd: \(reason)")
    }

    private func closeConnection() {
        if let clientToken { loop.deregister(clientToken) }
        clientToken = nil
        client = nil
    }

    private func scheduleReconnect(_ reason: String) {
        failedAttempts += 1
        let line = "\(reason); trying again in \(reconnectDelay) ms"
        if failedAttempts == 1 { logger.warning(line) } else { logger.debug(line) }
        reconnectAt = MonotonicClock.nowMicroseconds() + reconnectDelay * 1000
        reconnectDelay = min(reconnectDelay * 2, settings.reconnectMaximumMilliseconds)
        armTimer()
    }

    private func fail(_ message: String, status: Int32) {
        logger.error(message)
        closeConnection()
        exitStatus = status
        runner.terminateAll()
        loop.stop()
    }

    // MARK: Time and signals

    private func timerFired() {
        runner.advance()
        if let due = reconnectAt, due <= MonotonicClock.nowMicroseconds() {
            reconnectAt = nil
            connect()
        }
        armTimer()
    }

    private func armTimer() {
        let deadlines = [runner.nextDeadline, reconnectAt].compactMap { $0 }
        timer?.arm(at: deadlines.min())
    }

    /// SIGTERM or SIGINT: the regions go (touchd would remove them when the connection closes; this does not leave
    /// it to that), running commands get SIGTERM, and the loop ends (`run` then waits for the commands, SIGKILL
    /// after `killAfterMs`).
    ///
    /// The commands are told first, and the first request that fails ends the removals: a touchd that does not
    /// answer (stopped, hung) would otherwise hold the stop for 2 s per region, past the unit's TimeoutStopSec, and
    /// touchd removes the regions anyway when the connection closes.
    private func stop(signal: Int32) {
        runner.terminateAll()
        var removed = 0
        if let client {
            client.replyTimeoutMilliseconds = min(settings.requestTimeoutMilliseconds, 2_000)
            for region in file.regions.reversed() {
                guard let reply = try? client.request(op: "remove-region", { $0.field("region", region.id) }) else {
                    break
                }
                if reply.ok { removed += 1 }
            }
        }
        logger.notice("stopping (SIG\(Signal.name(signal))): \(removed) region(s) removed")
        closeConnection()
        loop.stop()
    }
}
