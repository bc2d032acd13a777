import CShims
import FoundationEssentials
import Glibc
import TouchCore
import TouchEngine
import TouchFormats
import TouchJSON
import TouchPosix
import TouchScene
import TouchWire

/// The daemon: one thread, one epoll loop owning the input sources, the gesture timer, signals, the listening
/// socket and every client. Input goes through the same pipeline and dispatcher as `touchd replay`.
public final class Daemon {
    public struct Options: Sendable {
        public var socketPath: String?
        public var scenePath: String?
        /// Play this recording as a device (`touchd run --replay FILE`).
        public var replayPath: String?
        /// The device description for an events-only recording (`--desc FILE`), as `touchd replay --desc`.
        public var replayDescriptionPath: String?
        public var replayLoop = false
        public var replaySpeed = 1.0
        /// Hold the replay until this many clients have subscribed (tests and demos that must see it all).
        public var replayWaitsForSubscribers = 0
        /// Look for real touchscreens (off for `--replay` unless asked).
        public var scanDevices = true
        public var serverName = "touchd"

        public init() {}
    }

    public static let protocolVersion = ProtocolVersion.current

    let config: Config
    let options: Options
    let logger: Logger
    let loop: EventLoop
    var timer: LoopTimer!
    var signals: SignalSource?
    var listenFD: Int32 = -1
    var listenToken: UInt64 = 0
    let socketPath: String
    /// The socket file touchd created (nil when systemd passed the socket): removed at exit only if still ours.
    var socketFile: SocketFile?
    let access: ClientAccess
    /// Closes idle and stalled connections (`housekeep`).
    var housekeeping: LoopTimer?
    /// Accepting stops for a moment when descriptors run out (`pauseAccepting`).
    var acceptResume: LoopTimer?
    var acceptPaused = false
    /// Refusals are logged at most once a second (a peer can cause them at will).
    var refusalLog = LogThrottle()
    var clients: [Int: ClientConnection] = [:]
    var nextClientID = 1
    var scene: Scene
    var sceneVersion = 1
    var dispatcher: Dispatcher
    var sources: [UInt16: InputSource] = [:]
    var deviceIndices = DeviceIndices()
    var replay: ReplayFeeder?
    var replaySource: UInt16?
    var replayStarted = false
    var devices: DeviceManager?
    var sceneWatch: SceneFileWatch?
    var sceneSettle: LoopTimer?
    var watchdog: LoopTimer?
    var ready = false
    /// The listening socket came from systemd (touchd.socket): it is not ours to remove.
    var socketActivated = false
    /// Scratch buffers, reused so the per-event path does not allocate.
    var eventBuffer: [InputEvent] = []
    var pipelineBuffer: [PipelineOutput] = []
    var dispatchBuffer: [DispatchEvent] = []
    var writer = JSONWriter(capacity: 4096)
    /// Called once the sources are open and the socket listens, just after READY=1 goes to systemd.
    public var onReady: (() -> Void)?
    public private(set) var stopped = false

    public init(config: Config, options: Options, logger: Logger) throws {
        self.config = config
        self.options = options
        self.logger = logger
        socketPath = options.socketPath ?? config.socket.path
        loop = try EventLoop()
        let scenePath = options.scenePath ?? config.scenePath
        if let scenePath {
            scene = try Self.loadScene(scenePath)
        } else {
            scene = Scene(width: 1920, height: 1080, regions: [])
        }
        dispatcher = Dispatcher(scene: scene, options: Dispatcher.Options(dropUnassigned: config.dropUnassigned))
        let (access, warnings) = ClientAccess.resolve(config, lookup: Groups.id(of:))
        self.access = access
        for warning in warnings { logger.warning(warning) }
        eventBuffer.reserveCapacity(256)
        pipelineBuffer.reserveCapacity(64)
        dispatchBuffer.reserveCapacity(64)
    }

    static func loadScene(_ path: String) throws -> Scene {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.read(path)
        } catch {
            throw SceneError(file: path, line: 0, path: "", message: error.message)
        }
        return try SceneLoader.parse(bytes, file: path)
    }

    /// Opens everything and runs until SIGTERM/SIGINT or `stop()`.
    public func run() throws {
        timer = try LoopTimer(loop: loop) { [unowned self] in timerFired() }
        signals = try SignalSource(loop: loop, signals: [SIGTERM, SIGINT, SIGHUP]) { [unowned self] signal in
            handleSignal(signal)
        }
        housekeeping = try LoopTimer(loop: loop) { [unowned self] in housekeep() }
        acceptResume = try LoopTimer(loop: loop) { [unowned self] in resumeAccepting() }
        try openListener()
        if let replayPath = options.replayPath { try openReplay(replayPath) }
        if options.scanDevices {
            let manager = DeviceManager(config: config, logger: logger)
            devices = manager
            try manager.start(loop: loop) { [unowned self] change in deviceChanged(change) }
        }
        if let scenePath = options.scenePath ?? config.scenePath {
            // Editors save in several steps (write, rename, chmod): reload once, 100 ms after the last one.
            let settle = try LoopTimer(loop: loop) { [unowned self] in reloadScene(reason: "the scene file changed") }
            sceneSettle = settle
            sceneWatch = try? SceneFileWatch(loop: loop, path: scenePath) {
                settle.arm(at: MonotonicClock.nowMicroseconds() + 100_000)
            }
        }
        let activation = socketActivated ? " (socket activation)" : ""
        let regions = SceneIndex(scene: scene).nodes.count
        logger.notice(
            "listening on \(socketPath)\(activation); \(sources.count) device(s); scene \(scene.width)x\(scene.height) with \(regions) region(s)"
        )
        if let interval = Systemd.watchdogInterval() {
            // Ping at half the interval, as sd_watchdog_enabled(3) advises.
            let timer = try LoopTimer(loop: loop) { [unowned self] in
                Systemd.notify("WATCHDOG=1")
                watchdog?.arm(at: MonotonicClock.nowMicroseconds() + interval / 2)
            }
            watchdog = timer
            timer.arm(at: MonotonicClock.nowMicroseconds() + interval / 2)
        }
        // Devices are open and the socket listens: only now is touchd ready.
        Systemd.notify("READY=1\n" + statusLine)
        ready = true
        onReady?()
        try loop.run()
        shutdown()
    }

    public func stop() { loop.stop() }

    func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGHUP:
            reloadScene(reason: "SIGHUP")
        default:
            logger.notice("stopping on signal \(signal)")
            stop()
        }
    }

    // MARK: Socket

    func openListener() throws {
        if let passed = Systemd.passedListeningSocket() {
            listenFD = passed
            socketActivated = true
            listenToken = try loop.register(listenFD, for: .readable) { [unowned self] _ in acceptClients() }
            return
        }
        var group: UInt32?
        if let name = config.socket.group {
            guard let id = Groups.id(of: name) else {
                throw config.origin.error("socket.group", "no group '\(name)' on this system")
            }
            group = id
        }
        let file = try SocketFile.create(path: socketPath, mode: config.socket.mode, group: group)
        socketFile = file
        listenFD = file.descriptor
        listenToken = try loop.register(listenFD, for: .readable) { [unowned self] _ in acceptClients() }
    }

    /// systemd's STATUS= line: what `systemctl status touchd` shows.
    var statusLine: String {
        "STATUS=\(sources.count) device(s), \(clients.count) client(s), scene version \(sceneVersion)"
    }

    /// STATUS= updates start after READY=1: before it, systemd shows "activating" and READY carries the status.
    func reportStatus() {
        guard ready else { return }
        Systemd.notify(statusLine)
    }

    func shutdown() {
        Systemd.notify("STOPPING=1")
        stopped = true
        let now = EventTime(microseconds: MonotonicClock.nowMicroseconds())
        for index in sources.keys.sorted() { cancelTouches(of: index, at: now) }
        flushClients()
        for client in clients.values {
            _ = client.enqueue(
                ServerMessages.goodbye(code: "shutdown", message: "touchd is stopping"), kind: .essential)
            _ = client.flush()
            loop.deregister(client.loopToken)
            client.close()
        }
        clients.removeAll()
        loop.deregister(listenToken)
        Posix.close(listenFD)
        if let socketFile, socketFile.removeIfStillOurs() == .replaced {
            logger.warning("\(socketPath) is no longer the socket touchd created; left in place")
        }
        sources.removeAll()  // each EvdevDevice ungrabs and closes in its deinit
        devices?.stop()
        logger.notice("stopped")
    }

    // MARK: Timer

    /// One timerfd serves gesture timers and replay pacing: it is armed for the earlier of the two.
    func rearmTimer() {
        var next = dispatcher.nextDeadline?.microseconds
        if replayStarted, let due = replay?.nextDue { next = min(next ?? due, due) }
        timer.arm(at: next)
    }

    func timerFired() {
        let now = MonotonicClock.nowMicroseconds()
        if replayStarted, let index = replaySource {
            // A pass that ends ends its fingers still down with cancel before the next pass starts
            // (docs/protocol.md, "End of stream"); a loop then goes on with new fingers.
            while var feeder = replay {
                eventBuffer.removeAll(keepingCapacity: true)
                let passEnd = feeder.due(upTo: now, into: &eventBuffer)
                replay = feeder
                if !eventBuffer.isEmpty { process(eventBuffer, from: index) }
                guard let passEnd else { break }
                cancelTouches(of: index, at: passEnd)
            }
        }
        dispatcher.advance(to: EventTime(microseconds: now), into: &dispatchBuffer)
        broadcastDispatched()
        flushClients()
        rearmTimer()
    }

    // MARK: Input

    func openReplay(_ path: String) throws {
        let recording = try RecordingLoader.load(path: path, descriptionPath: options.replayDescriptionPath)
        let index = deviceIndices.allocate { sources[$0] != nil } ?? 0
        let source = try InputSource(
            tag: DeviceTag(index: index, name: "replay\(index)"), node: path, description: recording.description,
            mappingSettings: CoordinateMapping.Settings(), sceneSize: (scene.width, scene.height))
        sources[index] = source
        replay = ReplayFeeder(recording: recording, speed: options.replaySpeed, loop: options.replayLoop)
        replaySource = index
        logger.info(
            "replaying \(path) as \(source.tag.name): \(recording.events.count) events\(options.replayLoop ? ", looping" : "")"
        )
        if options.replayWaitsForSubscribers == 0 { startReplay() }
    }

    func startReplay() {
        guard !replayStarted, replay != nil else { return }
        replayStarted = true
        replay?.start(at: MonotonicClock.nowMicroseconds())
        rearmTimer()
    }

    /// Runs events of one source through its pipeline and the dispatcher, and sends the results out.
    func process(_ events: [InputEvent], from index: UInt16) {
        guard let source = sources[index] else { return }
        for event in events {
            source.pipeline.process(event, into: &pipelineBuffer)
            guard !pipelineBuffer.isEmpty else { continue }
            dispatchPipelineBuffer(from: source.tag)
        }
        broadcastDispatched()
        flushClients()
        rearmTimer()
    }

    func resync(_ index: UInt16, to snapshot: DeviceSnapshot) {
        guard let source = sources[index] else { return }
        let now = EventTime(microseconds: MonotonicClock.nowMicroseconds())
        source.pipeline.resync(to: snapshot, at: now, into: &pipelineBuffer)
        dispatchPipelineBuffer(from: source.tag)
        broadcastDispatched()
        logger.warning(
            "\(source.tag.name): events dropped by the kernel (SYN_DROPPED); resynchronised from the device state")
    }

    func cancelTouches(of index: UInt16, at time: EventTime) {
        guard let source = sources[index] else { return }
        source.pipeline.cancelAll(at: time, into: &pipelineBuffer)
        dispatchPipelineBuffer(from: source.tag)
        broadcastDispatched()
    }

    /// Dispatches what the pipeline produced into `dispatchBuffer`; `broadcastDispatched` sends it out.
    private func dispatchPipelineBuffer(from device: DeviceTag) {
        for output in pipelineBuffer { dispatcher.handle(output, device: device, into: &dispatchBuffer) }
        pipelineBuffer.removeAll(keepingCapacity: true)
    }

    func broadcastDispatched() {
        guard !dispatchBuffer.isEmpty else { return }
        broadcast(dispatchBuffer)
        dispatchBuffer.removeAll(keepingCapacity: true)
    }
}
