import TouchCore
import TouchEngine
import TouchJSON
import TouchScene
import TouchWire

#if canImport(Glibc)
    import Glibc
#endif

/// FUZZ_TARGET=engine: the input is a script of operations against one `Engine` (the sans-I/O core of
/// `touchd run`), driven as the daemon drives it: clients connect and send chunks of request lines, their sockets
/// take all, part or none of what is flushed or fail, devices send events at times that jump to Int64's ends and
/// back, time advances (to `.max` too), scenes are reloaded, and the engine shuts down at the end. After every
/// operation the effects are applied as `Daemon.pump` applies them. What must hold:
///
/// - the engine names only clients it admitted, and none after its `.close`; each is closed at most once, and
///   after `shutdown` every admitted client has been closed exactly once;
/// - what a client receives splits into lines, each a JSON object with a string `type` (TouchJSON's parser): the
///   hello first and only once, nothing after a goodbye; only the end of what a partial write left queued may be an
///   unfinished line, and a close's final bytes finish the stream with a goodbye;
/// - replies come one per request line (or over-long line) the engine took, in order, and echo the request's id
///   exactly: an integer as written, a string byte for byte, no id when the request had none that is valid;
/// - a refused connection's goodbye is one JSON line;
/// - after `advance(to: t)` the next deadline is later than `t` or absent (else the daemon's timer would spin);
/// - a client whose input ended is closed once its socket takes everything (Engine.inputEnded);
/// - when the effects are drained the engine's client and device counts are the adapter's;
/// - a virtual touchscreen's frames are well formed and leave no finger down after its device's removal or the
///   shutdown (VirtualTouchscreenModel).
///
/// Script: the first byte picks the settings (bit 0: lines of 4096 or 200 bytes; 1: queues of 64 KiB or 2 KiB;
/// 2: idle timeout 30 s or 1 s; 3: only the clients' group may connect; bits 4…7: the scene), then operations, one
/// letter each (any other byte picks one by its value) with operand bytes. k names a client and d a device, by the
/// byte's low nibble ('0'…'9' the first ten, in order of admission), dt a time step (below).
///
///     c who              a peer connects: root, a member of the clients' group, of the scene group too, of neither
///     s k line\n         client k sends the bytes through the next newline
///     p k line\n         … the bytes before it only (a partial line, which the next chunk continues)
///     r k n line\n       … the line 1…128 times in one chunk (pipelining)
///     e k n b            … n × 256 bytes b, then a newline if n is even (a huge line)
///     H k                client k shuts down its sending side (end of input)
///     l k                client k's connection is lost
///     w k m              client k's socket from now on: takes all, nothing, 1…32 bytes or KiB a write, or fails;
///                        then it is writable
///     f k                client k's socket is writable
///     t d slot id x y dt a protocol B frame: slot, tracking id (0xff: -1), position × 4, SYN_REPORT
///     u d slot dt        a lift of one slot
///     v d n (c v dt)…    1…16 events of any type and code the decoder target uses, with values small, signed or
///                        extreme (Int32's ends)
///     y d s s s s s dt   SYN_DROPPED: the device resyncs to a snapshot of 5 slots
///     z d dt             the device's stream ends
///     a which            a device is added: protocol B, protocol A or single touch; with bit 5, a virtual
///                        touchscreen for the fingers no region claims (its frames are checked as its reader sees them)
///     d d                a device is removed
///     T dt               the clock moves
///     A m                the timer fires: at the next deadline, 600 ms on, at EventTime.max, or now
///     R s                the scene file is read again: one of `scenes`, or one that does not load
///     S                  the daemon stops (as it does after the last operation, or after 200)
///
/// dt: up to 127 ms on, or with the high bit a jump: near either end of Int64, half a second back, to 0, to
/// `.max` or `.min`, an idle timeout on, or up to 1.2 s on.
enum EngineTarget {
    static let maximumOperations = 200
    static let maximumSentBytes = 256 * 1024
    /// FUZZ_ENGINE_TRACE=1 prints each operation, each line a client receives and each close (to read a crash).
    static let tracing = getenv("FUZZ_ENGINE_TRACE") != nil

    static func trace(_ message: @autoclosure () -> String) {
        guard tracing else { return }
        // Unbuffered, to standard error: the lines before a crash are the point.
        var line = message() + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    static func check(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        var run = EngineRun(settingsByte: first)
        var script = Script(bytes: bytes, position: 1)
        var operations = 0
        while !script.atEnd && operations < maximumOperations {
            operations += 1
            if !run.perform(&script) { break }
            run.settle()
            run.checkCounts()
        }
        run.finish()
    }

    /// ReplayTarget's scene (every recognizer kind, 1280x800); a smaller one (devices map to a new size) whose
    /// background's id needs escaping in every event (quote, backslash, U+2028, a control character, non-ASCII); and
    /// an empty 1x1 one.
    static let scenes: [Scene] = [
        ReplayTarget.scene,
        load(
            """
            {"version": 1, "size": [640, 400], "regions": [
              {"id": "photo", "frame": [300, 100, 300, 250], "gestures": ["pinch", "rotate", "drag"],
               "simultaneous": [["pinch", "rotate"]]},
              {"id": "q\\"\\\\\\u2028\\u0001é\\ud83d\\ude00", "frame": [0, 0, 640, 400], "z": -1,
               "gestures": ["tap", {"type": "long-press", "durationMs": 300}, {"type": "swipe", "fingers": 2}]}
            ]}
            """),
        load(#"{"version": 1, "size": [1, 1], "regions": []}"#),
    ]

    static func load(_ json: String) -> Scene {
        do {
            return try SceneLoader.parse(Array(json.utf8), file: "fuzz-scene")
        } catch {
            fatalError("a fuzz scene does not load: \(error)")
        }
    }

    /// The decoder target's devices: protocol B (5 slots), protocol A and single touch, all 0…1000 on both axes.
    static let descriptions = DecoderInvariants.devices
}

/// The bytes of the script, read from the front.
struct Script {
    let bytes: [UInt8]
    var position: Int

    var atEnd: Bool { position >= bytes.count }

    /// The next byte, 0 past the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The bytes up to and including the next newline (or to the end).
    mutating func line() -> ArraySlice<UInt8> {
        let start = min(position, bytes.count)
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
        position = end
        return bytes[start..<end]
    }
}

/// What a client's socket does with a write.
enum SocketMode: Equatable {
    /// Takes everything (a fast reader): writable whenever something waits.
    case all
    /// Full: takes nothing.
    case full
    /// Takes at most this many bytes a write.
    case partial(Int)
    /// The write fails (EPIPE).
    case failed
}

/// One admitted client as the adapter and its peer see it: the peer's bytes not yet read by the engine, what the
/// engine took (framed, for the replies' ids), and what came back.
final class Peer {
    /// A request's id as the reply must echo it.
    enum ExpectedID: Equatable {
        case none
        case integer(Int64)
        case string([UInt8])
    }

    let id: ClientID
    var closed = false
    var mode = SocketMode.all
    var interest: Interest = .readable
    /// Sent by the peer, not yet read by the engine (the kernel's socket buffer).
    var inbound: [UInt8] = []
    var inboundHead = 0
    /// The peer shut down its sending side; `eofDelivered` once the engine was told.
    var eof = false
    var eofDelivered = false
    /// The bytes the engine took, framed as the engine frames them: one reply is due for each item.
    var framer: LineFramer
    var expected: [ExpectedID] = []
    var expectedHead = 0
    /// The unfinished last line of what the peer received.
    var partialLine: [UInt8] = []
    var lines = 0
    var saidGoodbye = false

    /// The uid of a peer without the scene permission, nil for one that has it.
    let refusedSceneUID: UInt32?

    init(id: ClientID, maximumLineBytes: Int, refusedSceneUID: UInt32? = nil) {
        self.id = id
        self.refusedSceneUID = refusedSceneUID
        framer = LineFramer(maximumLineLength: maximumLineBytes)
    }

    var hasUnread: Bool { inboundHead < inbound.count || (eof && !eofDelivered) }

    /// Bytes the engine took: note the id each finished request line carries.
    func engineTook(_ bytes: ArraySlice<UInt8>) {
        var items: [LineFramer.Item] = []
        framer.append(bytes, into: &items)
        for item in items {
            switch item {
            case .oversized: expected.append(.none)
            case .line(let line): expected.append(Self.expectedID(of: line, refusedSceneUID: refusedSceneUID))
            }
        }
    }

    /// What `docs/protocol.md` promises: any JSON string (valid UTF-8, as JSON text must be), or an integer that fits
    /// 64 bits, comes back as written; anything else (or a line that is not JSON) gets a reply with no id.
    /// docs/protocol.md, "A turn's budget": a scene change from a peer without the permission is refused from its
    /// `op` alone, and its id is read the same way, whatever the rest of the line holds.
    static func expectedID(of line: [UInt8], refusedSceneUID: UInt32?) -> ExpectedID {
        if let uid = refusedSceneUID, let refusal = RequestDecoder.refusedSceneChange(line, uid: uid) {
            switch refusal.id {
            case .string(let text)?: return .string(Array(text.utf8))
            case .integer(let integer)?: return .integer(integer)
            case nil: return .none
            }
        }
        guard let parsed = try? JSONParser.parse(line, keepingSourceOf: "id") else { return .none }
        switch parsed.value["id"] {
        case .string(let text, _)?:
            // A line with bytes that are not UTF-8 in a string does not parse (bad-json, no id).
            return .string(Array(text.utf8))
        case .number?:
            guard let source = parsed.source, let integer = integerText(source) else { return .none }
            return .integer(integer)
        default:
            return .none
        }
    }

    /// An integer written without fraction or exponent that fits 64 bits.
    static func integerText(_ source: ArraySlice<UInt8>) -> Int64? {
        guard source.allSatisfy({ $0 == UInt8(ascii: "-") || (48...57).contains($0) }) else { return nil }
        return Int64(String(decoding: source, as: UTF8.self))
    }

    /// Bytes that reached the peer.
    func received(_ bytes: UnsafeRawBufferPointer) {
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            partialLine.append(contentsOf: bytes[start..<index])
            receivedLine(partialLine)
            partialLine.removeAll(keepingCapacity: true)
            start = index + 1
        }
        partialLine.append(contentsOf: bytes[start...])
    }

    func receivedLine(_ line: [UInt8]) {
        EngineTarget.trace("  client \(id) <- \(show(line))")
        require(!saidGoodbye, "client \(id): a line after the goodbye: \(show(line))")
        guard let parsed = try? JSONParser.parse(line, keepingSourceOf: "id") else {
            fatalError("client \(id): a line that is not JSON: \(show(line))")
        }
        guard case .object = parsed.value, case .string(let type, _)? = parsed.value["type"] else {
            fatalError("client \(id): a line that is not an object with a type: \(show(line))")
        }
        require((lines == 0) == (type == "hello"), "client \(id): line \(lines) is a \(type): \(show(line))")
        lines += 1
        switch type {
        case "goodbye":
            saidGoodbye = true
        case "reply":
            require(expectedHead < expected.count, "client \(id): a reply to no request: \(show(line))")
            let want = expected[expectedHead]
            expectedHead += 1
            let got: ExpectedID
            switch parsed.value["id"] {
            case nil: got = .none
            case .string(let text, _)?: got = .string(Array(text.utf8))
            case .number?:
                guard let source = parsed.source, let integer = Self.integerText(source) else {
                    fatalError("client \(id): a reply's id is not an integer as written: \(show(line))")
                }
                got = .integer(integer)
            default:
                fatalError("client \(id): a reply's id is neither string nor integer: \(show(line))")
            }
            require(got == want, "client \(id): reply \(expectedHead) should have id \(want): \(show(line))")
        default:
            break
        }
    }

    /// The engine closed the connection, handing `finalBytes` to write first.
    func close(finalBytes: [UInt8]) {
        EngineTarget.trace("  client \(id) closed, \(finalBytes.count) final bytes")
        require(!closed, "client \(id) closed twice")
        closed = true
        guard !finalBytes.isEmpty else { return }
        finalBytes.withUnsafeBytes { received($0) }
        // Final bytes (a goodbye) are all that was queued: they finish whatever a partial write left.
        require(partialLine.isEmpty, "client \(id): final bytes end mid-line: \(show(partialLine))")
        require(saidGoodbye, "client \(id): final bytes without a goodbye")
    }

    func show(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(300), as: UTF8.self)
        return line.count > 300 ? text + "… (\(line.count) bytes)" : text
    }
}

/// The engine and the adapter's view of it.
struct EngineRun {
    let engine: Engine
    let settings: Engine.Settings
    var clock = EventTime(microseconds: 1_000_000)
    var peers: [ClientID: Peer] = [:]
    /// Every admitted client in order (closed ones too: operations may name them, as a late adapter would).
    var order: [Peer] = []
    /// Every device handle the engine gave out, and which are still in use.
    var handles: [DeviceHandle] = []
    var liveHandles: Set<DeviceHandle> = []
    /// The virtual touchscreens of devices added with one (`a` with bit 5 of its byte), as their readers see them.
    var virtualScreens: [DeviceHandle: VirtualTouchscreenModel] = [:]
    var sentBytes = 0
    var nextPid: Int32 = 100

    init(settingsByte: UInt8) {
        var settings = Engine.Settings()
        settings.maximumLineBytes = settingsByte & 1 == 0 ? 4096 : 200
        settings.queueBytes = settingsByte & 2 == 0 ? 64 * 1024 : 2048
        settings.idleTimeout = EventTime.Duration(microseconds: settingsByte & 4 == 0 ? 30_000_000 : 1_000_000)
        settings.access = ClientAccess(
            subscribeGroups: [50], restrictsSubscribers: settingsByte & 8 != 0, sceneGroups: [100], maximum: 6,
            reserved: 2)
        self.settings = settings
        let sceneIndex = Int(settingsByte >> 4) % EngineTarget.scenes.count
        engine = Engine(scene: EngineTarget.scenes[sceneIndex], settings: settings)
        addDevice(0, at: clock)
        pump()
    }

    // MARK: Operations

    /// Performs the next operation; false to stop (shutdown).
    mutating func perform(_ script: inout Script) -> Bool {
        let letters: [UInt8] = Array("cspreHlwftuvyzadTARS".utf8)
        var op = script.byte()
        if !letters.contains(op) { op = letters[Int(op) % letters.count] }
        EngineTarget.trace("\(Character(Unicode.Scalar(op))) at \(script.position - 1), clock \(clock)")
        switch op {
        case UInt8(ascii: "c"): connect(script.byte())
        case UInt8(ascii: "s"):
            // A chunk: the bytes through the next newline.
            let peer = self.peer(script.byte())
            send(script.line(), to: peer)
        case UInt8(ascii: "p"):
            // A partial line: the bytes before the next newline, which is not sent.
            let peer = self.peer(script.byte())
            var chunk = script.line()
            if chunk.last == UInt8(ascii: "\n") { chunk = chunk.dropLast() }
            send(chunk, to: peer)
        case UInt8(ascii: "r"):
            // Pipelining: one line sent many times in one chunk.
            let peer = self.peer(script.byte())
            let count = 1 + Int(script.byte() % 128)
            let line = script.line()
            var chunk: [UInt8] = []
            for _ in 0..<count where chunk.count + line.count <= 64 * 1024 { chunk.append(contentsOf: line) }
            send(chunk[...], to: peer)
        case UInt8(ascii: "e"):
            // A huge line: up to 64 KiB of one byte, finished by a newline or not.
            let peer = self.peer(script.byte())
            let size = script.byte()
            let filler = script.byte()
            var chunk = [UInt8](
                repeating: filler == UInt8(ascii: "\n") ? UInt8(ascii: " ") : filler, count: 256 * Int(size))
            if size & 1 == 0 { chunk.append(UInt8(ascii: "\n")) }
            send(chunk[...], to: peer)
        case UInt8(ascii: "H"):
            // The peer shuts down its sending side.
            if let peer = self.peer(script.byte()), !peer.closed {
                peer.eof = true
                readable(peer)
            }
        case UInt8(ascii: "l"):
            // The connection is lost (a closed one too: the engine must ignore it).
            if let peer = self.peer(script.byte()) {
                engine.connectionLost(peer.id, reason: "fuzz", at: clock)
                pump()
            }
        case UInt8(ascii: "w"):
            // The socket's behaviour from now on, then it is writable.
            let peer = self.peer(script.byte())
            let mode = script.byte()
            // Partial writes of 1…32 bytes, or of 1…32 KiB (a queue written in large parts is compacted).
            let part = (1 + Int(mode >> 2 & 0x1f)) * (mode & 0x80 == 0 ? 1 : 1024)
            peer?.mode = [.all, .full, .partial(part), .failed][Int(mode & 3)]
            if let peer { flush(peer) }
        case UInt8(ascii: "f"):
            if let peer = self.peer(script.byte()) { flush(peer) }
        case UInt8(ascii: "t"):
            // A protocol B frame: one slot's tracking id and position, then SYN_REPORT.
            let device = self.device(script.byte())
            let slot = Int32(script.byte() % 6)
            let trackingID = script.byte()
            let x = Int32(script.byte()) * 4
            let y = Int32(script.byte()) * 4
            let time = step(script.byte())
            let id: Int32 = trackingID == 0xff ? -1 : Int32(trackingID)
            process(
                [
                    InputEvent(time: time, type: EventType.abs, code: AbsCode.mtSlot, value: slot),
                    InputEvent(time: time, type: EventType.abs, code: AbsCode.mtTrackingID, value: id),
                    InputEvent(time: time, type: EventType.abs, code: AbsCode.mtPositionX, value: x),
                    InputEvent(time: time, type: EventType.abs, code: AbsCode.mtPositionY, value: y),
                    InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0),
                ], from: device)
        case UInt8(ascii: "u"):
            // A protocol B lift of one slot.
            let device = self.device(script.byte())
            let slot = Int32(script.byte() % 6)
            let time = step(script.byte())
            process(
                [
                    InputEvent(time: time, type: EventType.abs, code: AbsCode.mtSlot, value: slot),
                    InputEvent(time: time, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1),
                    InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0),
                ], from: device)
        case UInt8(ascii: "v"):
            // A batch of any events: (code, value, time) triples.
            let device = self.device(script.byte())
            let count = 1 + Int(script.byte() % 16)
            var events: [InputEvent] = []
            for _ in 0..<count where !script.atEnd {
                let selector = script.byte()
                let raw = script.byte()
                let (type, code) = DecoderInvariants.codes[Int(selector & 0x3f) % DecoderInvariants.codes.count]
                let value: Int32
                switch selector >> 6 {
                case 0, 1: value = Int32(raw) * 4
                case 2: value = Int32(Int8(bitPattern: raw))
                default: value = [Int32.max, Int32.min, -1, 0][Int(raw & 3)]
                }
                events.append(InputEvent(time: step(script.byte()), type: type, code: code, value: value))
            }
            process(events, from: device)
        case UInt8(ascii: "y"):
            // SYN_DROPPED: a snapshot of the slots from the next bytes.
            let device = self.device(script.byte())
            var slots: [SlotSnapshot] = []
            for _ in 0..<5 {
                let raw = Int32(Int8(bitPattern: script.byte()))
                slots.append(
                    SlotSnapshot(trackingID: raw < 0 ? -1 : raw, contact: ContactState(x: raw * 8, y: raw * 8)))
            }
            let time = step(script.byte())
            if let device {
                engine.resync(device, to: DeviceSnapshot(slots: slots), at: time)
                pump()
            }
        case UInt8(ascii: "z"):
            if let device = self.device(script.byte()) {
                engine.endOfStream(device, at: step(script.byte()))
                pump()
            }
        case UInt8(ascii: "a"):
            addDevice(Int(script.byte()), at: clock)
            pump()
        case UInt8(ascii: "d"):
            if let device = self.device(script.byte()) {
                engine.removeDevice(device, reason: "fuzz", at: clock)
                liveHandles.remove(device)
                pump()
                if let model = virtualScreens.removeValue(forKey: device) {
                    require(model.liveFingers == 0, "device removed with \(model.liveFingers) virtual fingers down")
                }
            }
        case UInt8(ascii: "T"):
            // The clock moves (the engine hears of it with the next input).
            clock = step(script.byte())
        case UInt8(ascii: "A"):
            // The timer fires: at the next deadline, at the clock, or at the end of time.
            switch script.byte() % 4 {
            case 0: clock = engine.nextDeadline ?? clock
            case 1: clock = clock + .milliseconds(600)
            case 2: clock = .max
            default: break
            }
            advance(to: clock)
        case UInt8(ascii: "R"):
            // The scene file read again: one that does not load, or one of the scenes.
            let choice = Int(script.byte()) % (EngineTarget.scenes.count + 1)
            if choice == EngineTarget.scenes.count {
                let error = SceneError(file: "scene.json", line: 1, path: "regions", message: "fuzz")
                engine.reloadScene(.failure(error), path: "scene.json", reason: "SIGHUP", at: clock)
            } else {
                engine.reloadScene(
                    .success(EngineTarget.scenes[choice]), path: "scene.json", reason: "SIGHUP", at: clock)
            }
            pump()
        default:
            // "S": the daemon stops.
            return false
        }
        return true
    }

    /// The next time from a byte: up to 127 ms on, or a jump (to Int64's ends, back, to 0, far ahead).
    mutating func step(_ byte: UInt8) -> EventTime {
        if byte & 0x80 == 0 {
            clock = clock + .milliseconds(Int64(byte))
        } else {
            let jumps: [EventTime] = [
                EventTime(microseconds: Int64.max - 1000), EventTime(microseconds: Int64.min + 1000),
                clock + EventTime.Duration(microseconds: -500_000), .zero, .max, .min,
                clock + settings.idleTimeout, clock + .milliseconds(Int64(byte & 0x78) * 10),
            ]
            clock = jumps[Int(byte & 7)]
        }
        return clock
    }

    func peer(_ byte: UInt8) -> Peer? {
        order.isEmpty ? nil : order[Int(byte & 0x0f) % order.count]
    }

    func device(_ byte: UInt8) -> DeviceHandle? {
        handles.isEmpty ? nil : handles[Int(byte & 0x0f) % handles.count]
    }

    mutating func addDevice(_ which: Int, at time: EventTime) {
        let description = EngineTarget.descriptions[which % EngineTarget.descriptions.count]
        let virtual = which & 0x20 != 0 ? VirtualTouchscreen.description(for: description) : nil
        let spec = DeviceSpec(
            key: which & 0x10 == 0 ? .named("event\(handles.count)") : .numbered(prefix: "fuzz"),
            node: "/dev/input/event\(handles.count)", description: description, virtualTouchscreen: virtual)
        if let handle = engine.addDevice(spec, at: time) {
            require(!liveHandles.contains(handle), "device handle \(handle.index) handed out twice")
            handles.append(handle)
            liveHandles.insert(handle)
            virtualScreens[handle] = virtual.map(VirtualTouchscreenModel.init(description:))
        }
    }

    /// A peer connects with credentials chosen by the byte: root, a member of the clients' group, a member of the
    /// scene group too, or a user in neither.
    mutating func connect(_ byte: UInt8) {
        let credentials: PeerCredentials
        switch byte & 3 {
        case 0: credentials = PeerCredentials(pid: nextPid, uid: 0, gid: 0, groups: [0])
        case 1: credentials = PeerCredentials(pid: nextPid, uid: 1000, gid: 1000, groups: [1000, 50])
        case 2: credentials = PeerCredentials(pid: nextPid, uid: 1001, gid: 1001, groups: [1001, 50, 100])
        default: credentials = PeerCredentials(pid: nextPid, uid: 65534, gid: 65534, groups: [65534])
        }
        nextPid += 1
        switch engine.connect(credentials, at: clock) {
        case .admitted(let id):
            require(peers[id] == nil, "client id \(id) admitted twice")
            let mayChange = credentials.isRootOrMember(of: settings.access.sceneGroups)
            let peer = Peer(
                id: id, maximumLineBytes: settings.maximumLineBytes,
                refusedSceneUID: mayChange ? nil : credentials.uid)
            peers[id] = peer
            order.append(peer)
        case .refused(let goodbye):
            guard goodbye.last == UInt8(ascii: "\n"), goodbye.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil,
                let value = try? JSONParser.parse(Array(goodbye.dropLast())),
                case .string("goodbye", _)? = value["type"]
            else {
                fatalError("a refusal is not one goodbye line: \(String(decoding: goodbye, as: UTF8.self))")
            }
        }
        pump()
    }

    /// The peer writes: the bytes wait in its socket until the engine reads them.
    mutating func send(_ chunk: ArraySlice<UInt8>, to peer: Peer?) {
        guard let peer, !peer.closed, !peer.eof, sentBytes + chunk.count <= EngineTarget.maximumSentBytes else {
            return
        }
        sentBytes += chunk.count
        peer.inbound.append(contentsOf: chunk)
        readable(peer)
    }

    /// `Daemon.clientReady`: reads while the engine wants input (64 KiB a read, 1 MiB a turn), tells it of the end
    /// of input, then flushes.
    mutating func readable(_ peer: Peer) {
        guard !peer.closed else { return }
        var total = 0
        while total < 1 << 20 && engine.wantsInput(from: peer.id) {
            if peer.inboundHead < peer.inbound.count {
                let end = min(peer.inbound.count, peer.inboundHead + 64 * 1024)
                let chunk = peer.inbound[peer.inboundHead..<end]
                peer.inboundHead = end
                total += chunk.count
                peer.engineTook(chunk)
                engine.receive(chunk, from: peer.id, at: clock)
            } else {
                if peer.eof && !peer.eofDelivered {
                    peer.eofDelivered = true
                    engine.inputEnded(from: peer.id, at: clock)
                }
                break
            }
        }
        flush(peer)
    }

    /// The socket is writable (or the peer was read): `write`, then the effects.
    mutating func flush(_ peer: Peer) {
        write(peer)
        pump()
    }

    /// `Daemon.flush`: one write of everything queued, which the socket takes as its mode says. Like the daemon's,
    /// it does not pump: the effects of a flush that the pump carries out wait for the pump's next round.
    func write(_ peer: Peer) {
        guard !peer.closed else { return }
        let mode = peer.mode
        engine.flush(peer.id, at: clock) { raw in
            require(!peer.closed, "client \(peer.id) written after its close")
            let taken: Int
            switch mode {
            case .all: taken = raw.count
            case .full: taken = 0
            case .partial(let most): taken = min(most, raw.count)
            case .failed: return .failed
            }
            peer.received(UnsafeRawBufferPointer(rebasing: raw[0..<taken]))
            return .wrote(taken)
        }
    }

    mutating func process(_ events: [InputEvent], from device: DeviceHandle?) {
        guard let device else { return }
        engine.process(events, from: device)
        pump()
    }

    mutating func advance(to time: EventTime) {
        engine.advance(to: time)
        if let deadline = engine.nextDeadline {
            // Deferred requests ask for the next turn (a deadline of now), and each turn serves a budget of them.
            require(
                deadline > time || engine.hasDeferredRequests,
                "after advance(to: \(time)) the next deadline is \(deadline)")
        }
        pump()
    }

    /// `Daemon.pump`: carries out the effects until none is left.
    mutating func pump() {
        var rounds = 0
        while engine.hasEffects {
            rounds += 1
            require(rounds < 100_000, "the engine keeps asking for more")
            for effect in engine.takeEffects() {
                EngineTarget.trace("  effect \(effect)")
                switch effect {
                case .log, .status, .reload:
                    break
                case .watch(let id, let interest):
                    live(id, "watch").interest = interest
                case .flush(let id):
                    write(live(id, "flush"))
                case .close(let id, let finalBytes):
                    live(id, "close").close(finalBytes: finalBytes)
                case .emit(let device, let frame):
                    guard var model = virtualScreens[device] else {
                        fatalError("a frame for device \(device.index), which has no virtual touchscreen")
                    }
                    model.apply(frame, device: "virtual touchscreen of device \(device.index)")
                    virtualScreens[device] = model
                }
            }
        }
    }

    /// The client an effect names: one the engine admitted and has not closed.
    func live(_ id: ClientID, _ effect: String) -> Peer {
        guard let peer = peers[id] else { fatalError("\(effect) for client \(id), which was never admitted") }
        require(!peer.closed, "\(effect) for client \(id) after its close")
        return peer
    }

    /// The event loop's turn: a peer whose bytes the engine wants again is read (level-triggered), and one whose
    /// socket takes everything is flushed while the engine watches it for writing.
    mutating func settle() {
        var turns = 0
        var busy = true
        while busy {
            busy = false
            turns += 1
            require(turns < 10_000, "the loop never settles")
            for peer in order where !peer.closed {
                if peer.hasUnread && engine.wantsInput(from: peer.id) {
                    readable(peer)
                    busy = true
                } else if peer.mode == .all && peer.interest.contains(.writable) {
                    flush(peer)
                    busy = true
                }
            }
        }
    }

    func checkCounts() {
        require(!engine.hasEffects, "effects left after the pump")
        let open = order.filter { !$0.closed }.count
        require(engine.clientCount == open, "the engine has \(engine.clientCount) clients, the adapter \(open)")
        require(engine.subscriberCount <= open, "more subscribers than clients")
        require(engine.deviceCount == liveHandles.count, "the engine has \(engine.deviceCount) devices")
        for (device, model) in virtualScreens {
            let counted = engine.virtualFingerCount(of: device)
            require(
                counted == model.liveFingers,
                "virtual fingers: the engine counts \(counted), frames leave \(model.liveFingers)")
        }
        // "The connection closes once that is delivered" (Engine.inputEnded): a socket that takes everything has.
        for peer in order where !peer.closed {
            require(
                !(peer.eofDelivered && peer.mode == .all), "client \(peer.id): input ended, all delivered, still open")
        }
    }

    /// The daemon stops: every client gets its queue and a goodbye, and is closed.
    mutating func finish() {
        engine.shutdown(at: clock)
        pump()
        for (device, model) in virtualScreens {
            require(
                model.liveFingers == 0,
                "device \(device.index): \(model.liveFingers) virtual fingers after the shutdown")
        }
        for peer in order {
            require(peer.closed, "client \(peer.id) was not closed by the shutdown")
        }
        require(engine.clientCount == 0 && engine.subscriberCount == 0, "clients left after the shutdown")
    }
}

/// `precondition` that keeps its message in a release build (which drops precondition's): a crash must say what broke.
func require(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition { fatalError(message(), file: file, line: line) }
}
