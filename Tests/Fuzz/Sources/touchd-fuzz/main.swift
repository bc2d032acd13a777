import CFuzzerDriver
import TouchCore
import TouchDaemon
import TouchFormats
import TouchJSON
import TouchScene
import TouchWire

#if canImport(Glibc)
    import Glibc
#endif

/// One libFuzzer executable, several targets, chosen by FUZZ_TARGET: evemu, yaml, raw, getevent, evtest,
/// stream, decoder, replay, scene, config, protocol, engine. Readers must never crash (errors are fine); the decoder
/// must keep its invariants on any event sequence; a replay through a scene must too (ReplayTarget.swift); the
/// engine must keep its promises to clients under any script of inputs (EngineTarget.swift). Timestamps are pushed
/// to their extremes by TimeMutator.swift.
let target = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? "evemu"

func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    switch target {
    case "evemu":
        _ = try? EvemuReader.parse(
            bytes, file: "fuzz", options: ReadOptions(skipBadLines: bytes.first.map { $0 & 1 == 1 } ?? false))
    case "yaml": _ = try? LibinputRecordReader.parse(bytes, file: "fuzz")
    case "raw": _ = try? RawEventReader.parse(bytes, file: "fuzz")
    case "getevent": _ = try? GeteventReader.parse(bytes, file: "fuzz")
    case "evtest": _ = try? EvtestReader.parse(bytes, file: "fuzz")
    case "stream": StreamTarget.check(bytes)
    case "decoder": DecoderInvariants.check(bytes)
    case "replay": ReplayTarget.check(bytes)
    case "engine": EngineTarget.check(bytes)
    case "scene":
        if let scene = try? SceneLoader.parse(bytes, file: "fuzz") {
            let index = SceneIndex(scene: scene)
            for x in stride(from: 0.0, through: scene.width, by: max(scene.width / 7, 1)) {
                let point = Point(x: x, y: x * scene.height / max(scene.width, 1))
                precondition(index.hitTest(point) == index.linearHitTest(point), "grid and scan disagree")
            }
            _ = try? SceneLoader.parse(SceneEncoder.encode(scene), file: "again")
        }
    case "config": _ = try? ConfigLoader.parse(bytes, file: "fuzz")
    case "protocol":
        var framer = LineFramer(maximumLineLength: 4096)
        var items: [LineFramer.Item] = []
        framer.append(bytes[...], into: &items)
        for case .line(let line) in items { _ = RequestDecoder.decode(line) }
    default:
        fatalError("unknown FUZZ_TARGET \(target)")
    }
    return 0
}

/// Any event sequence through the decoder: every finger that goes down ends exactly once (up or cancel, the
/// rest cancelled at the end), no event names a finger that is not live, live ids are unique, and output times
/// never go back, though input times jump to Int64's ends and backwards.
enum DecoderInvariants {
    static let devices: [DeviceDescription] = [
        DeviceDescription(
            name: "slots",
            absInfo: [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 4),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000),
                AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000),
                AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            ]),
        DeviceDescription(
            name: "contacts",
            absInfo: [
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000),
                AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000),
            ]),
        DeviceDescription(
            name: "single", codes: [EventType.key: [KeyCode.touch]],
            absInfo: [
                AbsCode.x: AbsInfo(minimum: 0, maximum: 1000), AbsCode.y: AbsInfo(minimum: 0, maximum: 1000),
            ]),
    ]
    static let codes: [(UInt16, UInt16)] = [
        (EventType.syn, SynCode.report), (EventType.syn, SynCode.report), (EventType.syn, SynCode.mtReport),
        (EventType.syn, SynCode.dropped), (EventType.key, KeyCode.touch), (EventType.abs, AbsCode.mtSlot),
        (EventType.abs, AbsCode.mtTrackingID), (EventType.abs, AbsCode.mtPositionX),
        (EventType.abs, AbsCode.mtPositionY),
        (EventType.abs, AbsCode.mtToolType), (EventType.abs, AbsCode.mtPressure), (EventType.abs, AbsCode.x),
        (EventType.abs, AbsCode.y),
    ]

    static func check(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        var decoder = TouchDecoder(description: devices[Int(first) % devices.count])
        var outputs: [DecoderOutput] = []
        var time: Int64 = 0
        var index = 1
        // The decoder's live count (kept as it goes) against the fingers its outputs left down, after every step.
        var netFingers = 0
        var outputsSeen = 0
        func checkLiveCount() {
            for case .finger(let event) in outputs[outputsSeen...] {
                switch event.phase {
                case .down: netFingers += 1
                case .up, .cancel: netFingers -= 1
                case .move: break
                }
            }
            outputsSeen = outputs.count
            precondition(
                decoder.liveFingerCount == netFingers,
                "the decoder counts \(decoder.liveFingerCount) live fingers, its outputs left \(netFingers)")
        }
        while index + 3 <= bytes.count {
            let (type, code) = codes[Int(bytes[index]) % codes.count]
            // Small values, so slots, tracking ids and tool types collide often.
            let value = Int32(Int8(bitPattern: bytes[index + 1])) * (bytes[index + 2] & 0x80 != 0 ? 37 : 1)
            if bytes[index + 2] & 0x70 == 0x70 {
                // A time jump: near either end of Int64, to 0, or half a second back.
                let jumps: [Int64] = [.max - 1000, .min + 1000, time &- 500_000, 0]
                time = jumps[Int(bytes[index + 1] & 3)]
            } else {
                time = (EventTime(microseconds: time) + .milliseconds(Int64(bytes[index + 2] & 0x0f))).microseconds
            }
            if bytes[index] == 0xff {
                // A resync with a snapshot built from the next bytes.
                var slots: [SlotSnapshot] = []
                for slot in 0..<5 where index + 3 + slot < bytes.count {
                    let raw = Int32(Int8(bitPattern: bytes[index + 3 + slot]))
                    slots.append(SlotSnapshot(trackingID: raw < 0 ? -1 : raw, contact: ContactState(x: raw, y: raw)))
                }
                decoder.resync(to: DeviceSnapshot(slots: slots), at: EventTime(microseconds: time), into: &outputs)
            } else {
                decoder.process(
                    InputEvent(time: EventTime(microseconds: time), type: type, code: code, value: value),
                    into: &outputs)
            }
            checkLiveCount()
            index += 3
        }
        decoder.cancelAll(at: EventTime(microseconds: time) + EventTime.Duration(microseconds: 1), into: &outputs)
        var live: Set<UInt32> = []
        var ended: Set<UInt32> = []
        var last = EventTime.min
        for case .finger(let event) in outputs {
            precondition(event.time >= last, "output time went back: \(event.time) after \(last)")
            last = event.time
            let id = event.finger.rawValue
            switch event.phase {
            case .down:
                precondition(!live.contains(id) && !ended.contains(id), "finger \(id) went down twice")
                live.insert(id)
            case .move:
                precondition(live.contains(id), "move for finger \(id), which is not live")
            case .up, .cancel:
                precondition(live.remove(id) != nil, "end for finger \(id), which is not live")
                ended.insert(id)
            }
        }
        precondition(live.isEmpty, "fingers \(live) never ended")
        precondition(decoder.liveFingerCount == 0, "the decoder still counts live fingers")
    }
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
_ = LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) }
