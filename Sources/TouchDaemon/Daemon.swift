import FoundationEssentials
import TouchCore
import TouchEngine
import TouchFormats
import TouchPosix
import TouchScene
import TouchVersion

/// The daemon: an adapter around the engine (TouchEngine). One thread, one epoll loop owning the devices, one
/// timer, signals, the listening socket and every client; it moves bytes and events in, carries the engine's
/// effects out (logs, status, what to watch, whom to flush or close) and decides nothing itself.
public final class Daemon {
    public struct Options: Sendable {
        public var socketPath: String?
        public var scenePath: String?
        /// The configuration file, read again on SIGHUP for the devices' calibration.
        public var configPath: String?
        /// Play this recording as a device (`touchd run --replay FILE`).
        public var replayPath: String?
        /// The device description for an events-only recording (`--desc FILE`), as `touchd replay --desc`.
        public var replayDescriptionPath: String?
        public var replayLoop = false
        public var replaySpeed = 1.0
        /// Hold the replay until this many clients have subscribed (tests and demos that must see it all).
        public var replayWaitsForSubscribers = 0
        /// The replayed device's jitter filter (`--filter`), as `touchd replay --filter`.
        public var replayFilter = JitterFilter.standard
        /// Look for real touchscreens (off for `--replay` unless asked).
        public var scanDevices = true
        public var serverName = "touchd"

        public init() {}
    }

    /// The largest scene file the daemon reads (a 10,000-region scene is about 2 MB).
    public static let maximumSceneBytes = 16 << 20
    /// The largest configuration a reload reads: a few device rules are a few KiB.
    public static let maximumConfigBytes = 1 << 20

    let config: Config
    let options: Options
    let logger: Logger
    let engine: Engine
    let loop: EventLoop
    /// Armed for the engine's next deadline or the replay's next event, whichever comes first.
    var timer: LoopTimer!
    var signals: SignalSource?
    let socketPath: String
    var listener: Listener?
    /// Made at start: when accepting pauses for want of descriptors, there is none left to make a timer with.
    var acceptResume: LoopTimer?
    var connections: [ClientID: Connection] = [:]
    var sources: [DeviceHandle: LiveDevice] = [:]
    /// Devices whose virtual touchscreen failed a write: logged once, not for every frame after.
    var failedVirtualWrites: Set<DeviceHandle> = []
    var devices: DeviceManager?
    var replay: ReplaySource?
    var sceneWatch: FileWatch?
    var sceneSettle: LoopTimer?
    var watchdog: LoopTimer?
    var ready = false
    /// Scratch buffers, reused so the per-event path does not allocate.
    var eventBuffer: [InputEvent] = []
    /// The engine's effects as `pump` takes them; its storage goes back and forth with the engine's.
    var effectBuffer: [EngineEffect] = []
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Called once the sources are open and the socket listens, just after READY=1 goes to systemd.
    public var onReady: (() -> Void)?
    public private(set) var stopped = false

    public init(config: Config, options: Options, logger: Logger) throws {
        self.config = config
        self.options = options
        self.logger = logger
        socketPath = options.socketPath ?? config.socket.path
        loop = try EventLoop()
        let scene: Scene
        if let scenePath = options.scenePath ?? config.scenePath {
            scene = try Self.loadScene(scenePath)
        } else {
            scene = Scene(width: 1920, height: 1080, regions: [])
        }
        let (access, warnings) = ClientAccess.resolve(config, lookup: Groups.id(of:))
        for warning in warnings { logger.warning(warning) }
        var settings = Engine.Settings()
        settings.serverName = options.serverName
        settings.version = TouchdVersion.description
        settings.dispatcher = Dispatcher.Options(dropUnassigned: config.dropUnassigned)
        settings.maximumLineBytes = config.clients.maximumLineBytes
        settings.queueBytes = config.clients.queueBytes
        settings.idleTimeout = EventTime.Duration(microseconds: Int64(config.clients.idleTimeoutSeconds) * 1_000_000)
        settings.access = access
        engine = Engine(scene: scene, settings: settings)
        eventBuffer.reserveCapacity(256)
    }

    static func loadScene(_ path: String) throws(SceneError) -> Scene {
        let bytes: [UInt8]
        do {
            // Read inside the loop (SIGHUP, the file watch): a regular file only, and no bigger than a scene can
            // sensibly be, so neither a FIFO nor a huge file can stall the daemon.
            bytes = try FileReader.readRegularFile(path, limit: Self.maximumSceneBytes)
        } catch {
            throw SceneError(file: path, line: 0, path: "", message: error.message)
        }
        return try SceneLoader.parse(bytes, file: path)
    }

    /// The time every input is stamped with: CLOCK_MONOTONIC, as evdev stamps a device's events.
    var now: EventTime { EventTime(microseconds: MonotonicClock.nowMicroseconds()) }

    /// Opens everything and runs until SIGTERM/SIGINT or `stop()`.
    public func run() throws {
        timer = try LoopTimer(loop: loop) { [unowned self] in timerFired() }
        let handled = [Signal.terminate, Signal.interrupt, Signal.hangup]
        signals = try SignalSource(loop: loop, signals: handled) { [unowned self] signal in handleSignal(signal) }
        acceptResume = try LoopTimer(loop: loop) { [unowned self] in resumeAccepting() }
        try openListener()
        if let replayPath = options.replayPath { try openReplay(replayPath) }
        if options.scanDevices {
            let manager = DeviceManager(config: config, logger: logger)
            devices = manager
            try manager.start(loop: loop) { [unowned self] change in deviceChanged(change) }
        }
        try watchSceneFile()
        let activation = listener?.socketActivated == true ? " (socket activation)" : ""
        let regions = engine.scene.regionCount
        let scene = engine.scene
        logger.notice(
            "listening on \(socketPath)\(activation); \(engine.deviceCount) device(s); scene \(scene.width)x\(scene.height) with \(regions) region(s)"
        )
        try startWatchdog()
        pump()
        // Devices are open and the socket listens: only now is touchd ready.
        Systemd.notify("READY=1\nSTATUS=" + engine.statusLine)
        ready = true
        onReady?()
        try loop.run()
        shutdown()
    }

    public func stop() { loop.stop() }

    func handleSignal(_ signal: Int32) {
        switch signal {
        case Signal.hangup:
            reloadScene(reason: "SIGHUP")
            reloadCalibrations(reason: "SIGHUP")
        default:
            logger.notice("stopping on signal \(signal)")
            stop()
        }
    }

    func startWatchdog() throws {
        guard let interval = Systemd.watchdogInterval() else { return }
        // Ping at half the interval, as sd_watchdog_enabled(3) advises.
        let timer = try LoopTimer(loop: loop) { [unowned self] in
            Systemd.notify("WATCHDOG=1")
            watchdog?.arm(at: MonotonicClock.nowMicroseconds() + interval / 2)
        }
        watchdog = timer
        timer.arm(at: MonotonicClock.nowMicroseconds() + interval / 2)
    }

    func shutdown() {
        Systemd.notify("STOPPING=1")
        stopped = true
        engine.shutdown(at: now)
        pump()
        listener?.close()
        if let listener, listener.removeSocketIfStillOurs() == .replaced {
            logger.warning("\(socketPath) is no longer the socket touchd created; left in place")
        }
        for source in sources.values { loop.deregister(source.token) }
        sources.removeAll()  // each EvdevDevice ungrabs and closes in its deinit
        devices?.stop()
        logger.notice("stopped")
    }

    // MARK: The engine's effects

    /// Carries out what the engine asked for, until it asks nothing more (flushing a client can answer its
    /// waiting requests, which asks for more), then sets the timer for its next deadline.
    func pump() {
        let time = now
        while engine.hasEffects {
            engine.takeEffects(into: &effectBuffer)
            for effect in effectBuffer {
                switch effect {
                case .log(let severity, let message):
                    logger.log(LogLevel(rawValue: severity.rawValue) ?? .info, message)
                case .status(let line):
                    // STATUS= updates start after READY=1, which carries the first.
                    if ready { Systemd.notify("STATUS=" + line) }
                case .watch(let id, let interest):
                    connections[id]?.watch(interest, in: loop)
                case .flush(let id):
                    flush(id, at: time)
                case .close(let id, let finalBytes):
                    guard let connection = connections.removeValue(forKey: id) else { continue }
                    loop.deregister(connection.token)
                    connection.close(after: finalBytes)
                case .emit(let device, let frame):
                    emit(frame, to: device)
                case .reload(let source):
                    reloadScene(reason: source)
                    reloadCalibrations(reason: source)
                }
            }
        }
        startReplayWhenSubscribed()
        rearmTimer()
    }

    func rearmTimer() {
        var next = engine.nextDeadline?.microseconds
        if let due = replay?.nextDue { next = min(next ?? due, due) }
        timer.arm(at: next)
    }

    func timerFired() {
        let time = now
        playReplay(upTo: time)
        // The replay's touches leave before the timer's other work, which may be a client's deferred scene edit.
        pump()
        engine.advance(to: time)
        pump()
    }
}
