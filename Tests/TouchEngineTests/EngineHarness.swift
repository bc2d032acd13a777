import Testing
import TouchCore
import TouchEngine
import TouchScene
import TouchTestKit
import TouchWire

/// An `Engine` driven as the daemon drives it (TouchDaemon's `pump`, `clientReady` and `flush`), with a virtual
/// clock and a `FakeSocket` per client instead of the kernel. It applies the effects as the adapter does: loops
/// over `takeEffects()` until none is left, flushes a client for `.flush`, records `.watch`, `.close`, logs and
/// status lines. Time moves only when a test says so.
final class EngineHarness {
    let engine: Engine
    /// The virtual clock: every client input is stamped with it.
    private(set) var now: EventTime
    private(set) var sockets: [ClientID: FakeSocket] = [:]
    private(set) var logs: [(severity: Severity, message: String)] = []
    private(set) var statuses: [String] = []
    /// Connections closed, in order.
    private(set) var closed: [ClientID] = []
    /// Frames the engine had written to virtual touchscreens (`.emit`), in order.
    private(set) var emitted: [(device: DeviceHandle, frame: [InputEvent])] = []
    /// The `reload` effects asked for, by source.
    private(set) var reloads: [String] = []
    /// The daemon reads 64 KiB at a time; smaller chunks show reading stop mid-stream under backpressure.
    var readChunk = 64 * 1024

    init(scene: Scene = Fixtures.scene(), settings: Engine.Settings = Fixtures.settings(), at start: EventTime = .zero)
    {
        engine = Engine(scene: scene, settings: settings)
        now = start
    }

    // MARK: Time

    /// Moves the clock without waking the engine (something else happens at `time`, or nothing does).
    func setClock(_ time: EventTime) {
        precondition(time >= now, "virtual time never goes back")
        now = time
    }

    /// Wakes the engine at `time`, as the daemon's timer does when it fires (whether or not a deadline is due).
    func advance(to time: EventTime) {
        setClock(time)
        engine.advance(to: time)
        pump()
    }

    /// Plays the daemon's timer up to `time`: each deadline fires at its own time, in order; then the clock shows
    /// `time`. Bounded, so an engine that keeps asking for the same past deadline fails the test instead of hanging.
    func runTimers(until time: EventTime) {
        var fired = 0
        while let deadline = engine.nextDeadline, deadline <= time {
            fired += 1
            guard fired < 10_000 else {
                Issue.record("the engine keeps asking for deadline \(deadline)")
                return
            }
            now = max(now, deadline)
            engine.advance(to: now)
            pump()
        }
        setClock(time)
    }

    // MARK: Clients

    /// A peer connects with these credentials; admitted clients get a socket (nil capacity: reads at once).
    @discardableResult
    func connect(_ credentials: PeerCredentials, capacity: Int? = nil) -> Engine.Admission {
        let admission = engine.connect(credentials, at: now)
        if case .admitted(let id) = admission { sockets[id] = FakeSocket(id: id, capacity: capacity) }
        pump()
        return admission
    }

    /// A peer that must be admitted.
    func client(_ credentials: PeerCredentials = Fixtures.user, capacity: Int? = nil) throws -> ClientID {
        guard case .admitted(let id) = connect(credentials, capacity: capacity) else {
            throw HarnessError.refused
        }
        return id
    }

    subscript(id: ClientID) -> FakeSocket { sockets[id]! }

    /// The client sends `text` and a newline; the adapter reads it when the engine wants input.
    func send(_ text: String, from id: ClientID) {
        sendBytes(Array((text + "\n").utf8), from: id)
    }

    func sendBytes(_ bytes: [UInt8], from id: ClientID) {
        self[id].inbound += bytes
        serve(id)
    }

    /// Sends one request and returns the lines that arrived for it (its reply, and whatever else was due).
    @discardableResult
    func request(_ text: String, from id: ClientID) -> [WireLine] {
        _ = self[id].take()
        send(text, from: id)
        // Turns of the loop until the request is answered (other clients' deferred requests may come first).
        for _ in 0..<10_000 where engine.hasDeferredRequests { fireTimerIfDueNow() }
        return self[id].take()
    }

    /// Subscribes and checks the reply; the test's subscribers start from a clean slate of received lines.
    func subscribe(_ id: ClientID, _ fields: String = "") throws {
        let separator = fields.isEmpty ? "" : ","
        let reply = request(#"{"op":"subscribe","id":"sub"\#(separator)\#(fields)}"#, from: id)
        guard reply.last?.bool("ok") == true else { throw HarnessError.subscribeFailed(reply.map(\.text)) }
    }

    /// The client shuts down its sending side (end-of-file after what it sent).
    func shutdownWrite(_ id: ClientID) {
        self[id].inboundEnded = true
        serve(id)
    }

    /// The connection broke under the adapter (a hangup while not reading, a failed read).
    func connectionLost(_ id: ClientID, reason: String = "closed the connection") {
        engine.connectionLost(id, reason: reason, at: now)
        pump()
    }

    /// The daemon's `clientReady`: reads while the engine wants input, then flushes the client.
    func serve(_ id: ClientID) {
        guard let socket = sockets[id], !socket.isClosed else { return }
        var total = 0
        while total < 1 << 20 && engine.wantsInput(from: id) {
            if !socket.inbound.isEmpty {
                let chunk = socket.inbound.prefix(readChunk)
                socket.inbound.removeFirst(chunk.count)
                engine.receive(chunk, from: id, at: now)
                total += chunk.count
            } else if socket.inboundEnded && !socket.endOfFileRead {
                socket.endOfFileRead = true
                engine.inputEnded(from: id, at: now)
                break
            } else {
                break
            }
        }
        flush(id)
        pump()
    }

    /// The daemon's timer when the engine asks for it at once (requests deferred to the next turn): it fires at
    /// the start of the next turn of the loop, before anything else is read.
    func fireTimerIfDueNow() {
        guard engine.hasDeferredRequests else { return }
        engine.advance(to: now)
        pump()
    }

    /// The daemon's `flush`: one call of the engine's flush, its bytes to the fake socket.
    func flush(_ id: ClientID) {
        guard let socket = sockets[id], !socket.isClosed else { return }
        engine.flush(id, at: now) { socket.write($0) }
    }

    /// The event loop: serves every client whose socket is ready until none is (level-triggered, as epoll is
    /// used). Bounded, so a livelock fails the test instead of hanging it.
    func settle() {
        for _ in 0..<1_000_000 {
            // The daemon's timer: a deadline already come (requests deferred to the next turn) fires at once.
            if let deadline = engine.nextDeadline, deadline <= now {
                engine.advance(to: now)
                pump()
                continue
            }
            guard let id = sockets.keys.sorted().first(where: { sockets[$0]!.isReady }) else { return }
            serve(id)
        }
        Issue.record("the event loop never settled")
    }

    /// The client reads everything from now on, and the loop runs until it is idle.
    func startReading(_ id: ClientID) {
        self[id].capacity = nil
        settle()
    }

    // MARK: Effects

    /// Carries out the engine's effects until none is left (flushing can answer waiting requests, which adds
    /// more), as the daemon's `pump` does.
    func pump() {
        while engine.hasEffects {
            for effect in engine.takeEffects() {
                switch effect {
                case .log(let severity, let message): logs.append((severity, message))
                case .status(let line): statuses.append(line)
                case .watch(let id, let interest): sockets[id]?.watch(interest)
                case .flush(let id): flush(id)
                case .close(let id, let finalBytes):
                    guard let socket = sockets[id], !socket.isClosed else {
                        Issue.record("client \(id) closed twice, or never connected")
                        continue
                    }
                    socket.close(after: finalBytes)
                    closed.append(id)
                case .emit(let device, let frame):
                    emitted.append((device, frame))
                case .reload(let source):
                    reloads.append(source)
                }
            }
        }
    }

    /// Log messages containing `text`.
    func logged(_ text: String) -> [String] { logs.map(\.message).filter { $0.contains(text) } }

    // MARK: Devices

    func addDevice(_ spec: DeviceSpec = Fixtures.touchscreen()) throws -> DeviceHandle {
        let handle = engine.addDevice(spec, at: now)
        pump()
        guard let handle else { throw HarnessError.deviceRefused }
        return handle
    }

    /// Hands the device's events to the engine a frame at a time (a `SYN_REPORT` ends a batch), as the daemon
    /// reads them, and flushes clients between batches. The clock follows the events' times.
    func feed(_ events: [InputEvent], from device: DeviceHandle) {
        var batch: [InputEvent] = []
        for event in events {
            batch.append(event)
            if event.type == EventType.syn && event.code == SynCode.report {
                deliver(batch, from: device)
                batch.removeAll()
            }
        }
        if !batch.isEmpty { deliver(batch, from: device) }
    }

    private func deliver(_ batch: [InputEvent], from device: DeviceHandle) {
        if let last = batch.last { now = max(now, last.time) }
        engine.process(batch, from: device)
        pump()
    }

    func feed(_ script: EventScript, from device: DeviceHandle) { feed(script.events, from: device) }

    func removeDevice(_ device: DeviceHandle, reason: String = "unplugged") {
        engine.removeDevice(device, reason: reason, at: now)
        pump()
    }

    func endOfStream(_ device: DeviceHandle) {
        engine.endOfStream(device, at: now)
        pump()
    }

    func resync(_ device: DeviceHandle, to snapshot: DeviceSnapshot) {
        engine.resync(device, to: snapshot, at: now)
        pump()
    }

    func shutdown() {
        engine.shutdown(at: now)
        pump()
    }
}

enum HarnessError: Error {
    case refused
    case deviceRefused
    case subscribeFailed([String])
}
