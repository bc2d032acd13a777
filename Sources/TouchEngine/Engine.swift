import TouchCore
import TouchJSON
import TouchScene
import TouchWire

/// Everything between bytes in and bytes out, with no clock and no system call (sans-I/O, as swift-nio's
/// EmbeddedChannel and h11 do it): the devices' pipelines (decoder and mapping), the scene with its dispatcher and
/// gesture recognizers, and the clients with their subscriptions, permissions and bounded queues.
///
/// The adapter hands it inputs, each with the time it happened (`addDevice`, `process`, `connect`, `receive`,
/// `advance`, …), then takes the effects (`takeEffects()`: logs, status, what to watch, whom to flush, whom to
/// close) and sleeps until `nextDeadline`. Bytes leave through `flush(_:at:write:)`, which hands all of a client's
/// queued bytes to the adapter's writer at once: one system call per client per turn. `touchd run` (TouchDaemon)
/// and `touchd replay` (TouchdCLI's ReplayDriver) both drive this one engine; tests drive it with virtual time.
public final class Engine {
    public struct Settings: Sendable {
        /// The `server` of the hello, with the version after it.
        public var serverName = "touchd"
        /// The adapter gives TouchVersion's (the daemon does): a pure engine does not know what build it is in.
        public var version = "unknown"
        public var dispatcher = Dispatcher.Options()
        /// Off: decoded fingers go to the output only, with no dispatcher and nothing for clients (`touchd replay`
        /// without a scene, whose output is the decoder's alone).
        public var dispatches = true
        public var maximumLineBytes = 1 << 20
        public var queueBytes = 1 << 20
        /// A client that neither subscribes nor asks anything this long after connecting, or does not read its
        /// replies this long, is closed.
        public var idleTimeout = EventTime.Duration(microseconds: 30_000_000)
        public var access = ClientAccess(
            subscribeGroups: [], restrictsSubscribers: false, sceneGroups: [], maximum: 32, reserved: 4)

        public init() {}
    }

    public let settings: Settings
    public internal(set) var scene: Scene
    public internal(set) var sceneVersion = 1
    let dispatcher: Dispatcher
    /// Written only through `setDevice(_:at:)`, which keeps `lastProcessed` true to it.
    private(set) var devices: [UInt16: DeviceState] = [:]
    /// The device `process` last looked up: batches come a frame at a time, nearly always from the same device, and
    /// hashing its index for each cost more than the decoder's work on the frame's axis events. Unretained (a strong
    /// reference cost a retain and a release a frame): `devices` holds it, and `setDevice` forgets it with it.
    private var lastProcessed: Unmanaged<DeviceState>?
    var deviceIndices = DeviceIndices()
    var clients: [ClientID: ClientState] = [:]
    /// The client `connectedClient(_:)` last found (`Engine+Clients.swift`). Unretained: `clients` holds it, and
    /// `disconnect` and `shutdown` forget it as they remove it from there.
    var lastFoundClient: Unmanaged<ClientState>?
    /// Clients disconnected since the last `takeEffects()`, held until then, so that an input that reached a client
    /// unretained (`flush`) may go on reading it after a disconnect on the way.
    var retiredClients: [ClientState] = []
    /// Subscribed clients in order of connection: the fan-out's list, kept so no event filters the dictionary.
    var subscribers: [ClientState] = []
    /// The fan-out has `subscribers` lent (`broadcastDispatched`): a disconnect then leaves the array alone and sets
    /// `subscribersClosedInFanOut`, and the fan-out removes the closed clients when it is done.
    var isFanningOut = false
    var subscribersClosedInFanOut = false
    /// The fan-out's room for the selections encoded for an event (`Engine+FanOut.swift`).
    var encodedSelections = EncodedSelections()
    var nextClientID = 1
    var effects: [EngineEffect] = []
    /// Refusals are logged at most once a second (a peer can cause them at will).
    var refusalLog = LogThrottle()
    /// Connect and disconnect lines: a burst of 100 a second, then counted (any permitted peer can cause them).
    var connectionLog = LogThrottle(intervalMicroseconds: 1_000_000, burst: 100)
    /// Regions added with `transient` by clients that have closed since the last `takeEffects()`: removed there,
    /// between inputs, because a client can close in the middle of a fan-out, where a scene change must not start.
    var closedTransientRegions: [(client: ClientID, regions: [String])] = []
    /// What the request being handled did beyond reading its line: a scene put in force or written out spends the
    /// budget.
    var requestWork = RequestBudget.Work.line
    /// The request work left before the loop serves devices and timers again, shared by all clients.
    var requestBudget = RequestBudget()
    /// The client served first by the last turn that resumed deferred requests: the next turn starts after it.
    var lastResumedClient = ClientID(0)
    /// Clients whose `requestsDeferred` is set: asked at every flush and deadline, where looking at every client
    /// cost a walk of the dictionary.
    var deferredClients = 0
    /// The latest time an input carried: what a scene change or a cancel without its own time is stamped with.
    var now = EventTime.zero
    /// Touches cancelled as stuck since the engine started, on every device (`Engine+StuckTouches.swift`).
    public internal(set) var stuckTouchesCancelled = 0
    /// What the driver watches of the engine's work (`touchd replay`'s output, a test's observer); nil in the daemon.
    public var output: (any EngineOutput)?
    /// What the pipelines decoded while the output did not take it (`EngineOutput.takesDecoded`).
    public internal(set) var decodedCounts = DecodedCounts()

    // Scratch buffers, reused so the per-event path does not allocate.
    /// The outputs of a resync or a cancel, found before they go to the device's sink.
    var pipelineBuffer: [PipelineOutput] = []
    /// A step's outputs, for an output that takes them (`Watching`).
    var stepBuffer: [PipelineOutput] = []
    var dispatchBuffer: [DispatchEvent] = []
    /// How many of `dispatchBuffer`'s events were shown and queued already (`broadcastDispatched`).
    var dispatchedBefore = 0

    public init(scene: Scene, settings: Settings = Settings()) {
        self.settings = settings
        self.scene = scene
        dispatcher = Dispatcher(scene: scene, options: settings.dispatcher)
        pipelineBuffer.reserveCapacity(64)
        stepBuffer.reserveCapacity(64)
        dispatchBuffer.reserveCapacity(64)
    }

    deinit { encodedSelections.deallocate() }

    /// The device at `index`, for the per-event path: unretained, `devices` holds it for the whole of an input.
    /// Inlined: the kept device's test is shorter than the call.
    @inline(__always)
    func device(at index: UInt16) -> Unmanaged<DeviceState>? {
        if let last = lastProcessed, last._withUnsafeGuaranteedRef({ $0.tag.index == index }) { return last }
        lastProcessed = devices[index].map { Unmanaged.passUnretained($0) }
        return lastProcessed
    }

    /// Forgets the kept device first when it is the one replaced: `devices` may have held its last reference.
    func setDevice(_ device: DeviceState?, at index: UInt16) {
        if let last = lastProcessed, last._withUnsafeGuaranteedRef({ $0.tag.index == index }) { lastProcessed = nil }
        devices[index] = device
    }

    /// The effects since the last call, in the order they arose.
    public func takeEffects() -> [EngineEffect] {
        var taken: [EngineEffect] = []
        takeEffects(into: &taken)
        return taken
    }

    /// The effects since the last call, in the caller's buffer; the engine keeps the buffer's storage for the next
    /// ones. An adapter that passes the same buffer each time allocates nothing per input (returning the engine's
    /// own array and emptying it with its capacity kept made a new array for every input).
    public func takeEffects(into taken: inout [EngineEffect]) {
        if !closedTransientRegions.isEmpty { removeClosedTransientRegions() }
        if !retiredClients.isEmpty { retiredClients.removeAll() }
        taken.removeAllKeepingStorage()
        swap(&taken, &effects)
    }

    /// Whether effects wait (the adapter loops until none do: flushing a client can serve its waiting requests).
    public var hasEffects: Bool { !effects.isEmpty }

    /// The earliest time at which `advance(to:)` has work: a gesture timer, a withheld touch, a stuck touch's limit,
    /// an idle client, requests deferred to the next turn (now).
    public var nextDeadline: EventTime? {
        let gestures = settings.dispatches ? dispatcher.nextDeadline : nil
        let deferred = hasDeferredRequests ? now : nil
        let timers = EventTime.earliest(EventTime.earliest(gestures, housekeepingDeadline), deferred)
        return EventTime.earliest(timers, stuckDeadline)
    }

    /// Time has come to `time`: stuck touches past their limit are cancelled, gesture timers that are due fire, and
    /// idle or stalled clients are closed.
    public func advance(to time: EventTime) {
        now = max(now, time)
        cancelStuckTouches(upTo: time)
        if settings.dispatches {
            dispatcher.advance(to: time, into: &dispatchBuffer)
            takeBackFingers(at: time)
            broadcastDispatched()
        }
        // Before housekeeping: what the resumed requests leave waiting is judged in this same wake-up.
        if hasDeferredRequests { resumeDeferredRequests() }
        if let deadline = housekeepingDeadline, deadline <= time { housekeep() }
    }

    /// systemd's STATUS= line: what `systemctl status touchd` shows.
    public var statusLine: String {
        let stuck = stuckTouchesCancelled > 0 ? ", \(stuckTouchesCancelled) stuck touch(es) cancelled" : ""
        return "\(devices.count) device(s), \(clients.count) client(s), scene version \(sceneVersion)\(stuck)"
    }

    func reportStatus() { effects.append(.status(statusLine)) }

    func log(_ severity: Severity, _ message: String) { effects.append(.log(severity, message)) }

    /// Subscribed clients (a replay played with `--wait-for` starts when enough have subscribed).
    public var subscriberCount: Int { subscribers.count }

    public var clientCount: Int { clients.count }

    public var deviceCount: Int { devices.count }

    /// The engine is stopping: every live finger ends with cancel, then every client gets what is queued for it
    /// and a goodbye, and is closed.
    public func shutdown(at time: EventTime) {
        now = max(now, time)
        for index in devices.keys.sorted() { cancelTouches(of: DeviceHandle(index), at: time) }
        let goodbye = ServerMessages.goodbye(code: "shutdown", message: "touchd is stopping")
        for client in clients.values.sorted(by: { $0.id < $1.id }) {
            effects.append(.close(client.id, finalBytes: client.takeAll(then: goodbye)))
            client.isClosed = true
        }
        clients.removeAll()
        deferredClients = 0
        lastFoundClient = nil
        subscribers.removeAll()
    }
}
