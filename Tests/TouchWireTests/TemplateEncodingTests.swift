import Testing
import TouchCore
import TouchGestures
import TouchJSON
import TouchScene
import TouchWire

/// The event encoders write their lines as templates (literal keys, enum names spelled out): every line must
/// still be one JSON object whose names are the enums' own raw values.
@Suite("Template-written event lines")
struct TemplateEncodingTests {
    func parse(_ writer: JSONWriter) throws -> JSONValue {
        let bytes = writer.bytes
        #expect(bytes.last == UInt8(ascii: "\n") && bytes.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") })
        return try JSONParser.parse(Array(bytes.dropLast()))
    }

    func string(_ value: JSONValue?) -> String? {
        if case .string(let text, _)? = value { text } else { nil }
    }

    func number(_ value: JSONValue?) -> Double? {
        if case .number(let number, _)? = value { number } else { nil }
    }

    func isNull(_ value: JSONValue?) -> Bool {
        if case .null? = value { true } else { false }
    }

    @Test("every gesture kind and state is spelled as its raw value, with the fields of its kind")
    func gestures() throws {
        for kind in GestureKind.allCases {
            for state in [GestureEventKind.pressing, .began, .changed, .ended, .failed, .cancelled] {
                var event = GestureEvent(
                    name: "n\"q", kind: kind, event: state, time: EventTime(microseconds: -7),
                    location: Point(x: 1.375, y: -2), fingers: 2)
                event.direction = kind == .swipe ? .left : nil
                var writer = JSONWriter()
                DispatchEventEncoder.encode(event, region: "r\\1", into: &writer)
                let line = try parse(writer)
                #expect(string(line["kind"]) == kind.rawValue)
                #expect(string(line["state"]) == state.rawValue)
                #expect(string(line["gesture"]) == "n\"q" && string(line["region"]) == "r\\1")
                #expect(number(line["time_us"]) == -7 && number(line["x"]) == 1.38 && number(line["y"]) == -2)
                #expect((line["scale"] != nil) == (kind == .pinch || kind == .rotate))
                #expect((line["direction"] != nil) == (kind == .swipe))
            }
        }
    }

    @Test("touch lines: every phase, on a region and on nothing, attributes only when reported")
    func touches() throws {
        let scene = try SceneLoader.parse(
            #"{"size": [100, 100], "regions": [{"id": "pad", "frame": [0, 0, 50, 50]}]}"#, file: "pad.json")
        let dispatcher = Dispatcher(scene: scene)
        let device = DeviceTag(index: 3, name: "event3")
        var lines: [JSONValue] = []
        func send(_ phase: TouchPhase, finger: UInt32, x: Double, pressure: Int32?, palm: Bool) throws {
            var contact = ContactState(x: Int32(x), y: 7)
            contact.pressure = pressure
            contact.toolType = palm ? ToolType.palm : nil
            let event = FingerEvent(
                phase: phase, finger: FingerID(finger), slot: 0, time: EventTime(microseconds: 1_000), contact: contact)
            for dispatched in dispatcher.handle(
                .finger(MappedFingerEvent(event: event, position: Point(x: x, y: 7))), device: device)
            {
                var writer = JSONWriter()
                DispatchEventEncoder.encode(dispatched, into: &writer)
                lines.append(try parse(writer))
            }
        }
        try send(.down, finger: 1, x: 10.5, pressure: 30, palm: false)
        try send(.move, finger: 1, x: 12.25, pressure: nil, palm: false)
        try send(.up, finger: 1, x: 12.25, pressure: nil, palm: false)
        try send(.down, finger: 2, x: 80, pressure: nil, palm: false)
        try send(.cancel, finger: 2, x: 80, pressure: nil, palm: true)
        #expect(lines.map { string($0["type"]) } == ["down", "move", "up", "down", "cancel"])
        #expect(lines.map { string($0["region"]) } == ["pad", "pad", "pad", nil, nil])
        #expect(isNull(lines[3]["region"]) && isNull(lines[4]["region"]))
        #expect(lines.map { $0["pressure"] != nil } == [true, false, false, false, false])
        #expect(string(lines[4]["tool"]) == "palm" && lines[3]["tool"] == nil)
        #expect(
            number(lines[1]["x"]) == 12.25 && number(lines[1]["dx"]) == 1.75 && number(lines[1]["local_x"]) == 12.25)
        #expect(lines.map { number($0["finger"]) } == [1, 1, 1, 2, 2])
    }

    @Test("finger lines (replay without a scene): every phase, attributes only when reported, the tool by name")
    func fingers() throws {
        for phase in TouchPhase.allCases {
            var contact = ContactState(x: 300, y: -4)
            contact.touchMajor = phase == .move ? 12 : nil
            contact.toolType = phase == .up ? ToolType.pen : nil
            let event = FingerEvent(
                phase: phase, finger: FingerID(4), slot: 3, time: EventTime(microseconds: 99), contact: contact)
            var writer = JSONWriter()
            FingerEventEncoder.encode(
                MappedFingerEvent(event: event, position: Point(x: 0.5, y: 1279.99)), device: "d\"1", into: &writer)
            let line = try parse(writer)
            #expect(string(line["type"]) == phase.rawValue && string(line["device"]) == "d\"1")
            #expect(number(line["finger"]) == 4 && number(line["slot"]) == 3 && number(line["time_us"]) == 99)
            #expect(number(line["x"]) == 0.5 && number(line["y"]) == 1279.99)
            #expect(number(line["raw_x"]) == 300 && number(line["raw_y"]) == -4)
            #expect((number(line["touch_major"]) == 12) == (phase == .move))
            #expect(string(line["tool"]) == (phase == .up ? "pen" : nil))
            #expect(line["region"] == nil)
        }
    }
}

/// Touch and gesture lines reuse numbers printed on earlier lines of the same writer (a finger's `x` for its next
/// `prev_x`, `x` for `local_x`): through one writer they must be what a new writer prints for each line alone.
@Suite("Touch lines through one writer")
struct ReusedNumberTests {
    /// The number after `"key":` in a line, as printed.
    func field(_ key: String, in line: String) -> String? {
        let text = Array(line.utf8)
        let pattern = Array("\"\(key)\":".utf8)
        guard pattern.count <= text.count else { return nil }
        for start in 0...(text.count - pattern.count) where Array(text[start..<start + pattern.count]) == pattern {
            let value = text[(start + pattern.count)...].prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "}") }
            return String(decoding: value, as: UTF8.self)
        }
        return nil
    }

    @Test("twenty fingers (two to a memo slot) in a region at the origin and one elsewhere, with drags")
    func manyFingers() throws {
        let scene = try SceneLoader.parse(
            #"""
            {"size": [200, 100], "regions": [
                {"id": "origin", "frame": [0, 0, 100, 100], "gestures": ["drag"]},
                {"id": "right", "frame": [100, 0, 100, 100], "gestures": ["tap"]}]}
            """#, file: "two.json")
        let dispatcher = Dispatcher(scene: scene)
        let device = DeviceTag(index: 1, name: "event1")
        var state: UInt64 = 0x0123_4567_89AB_CDEF
        func random(_ bound: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * bound
        }
        var shared = JSONWriter()
        var touches = 0
        var gestures = 0
        var time: Int64 = 0
        func send(_ phase: TouchPhase, finger: UInt32, x: Double, y: Double) {
            time += 1_000
            let event = FingerEvent(
                phase: phase, finger: FingerID(finger), slot: Int32(finger % 10), time: EventTime(microseconds: time),
                contact: ContactState(x: Int32(x), y: Int32(y)))
            for dispatched in dispatcher.handle(
                .finger(MappedFingerEvent(event: event, position: Point(x: x, y: y))), device: device)
            {
                shared.reset()
                DispatchEventEncoder.encode(dispatched, into: &shared)
                var alone = JSONWriter()
                DispatchEventEncoder.encode(dispatched, into: &alone)
                #expect(shared.bytes == alone.bytes)
                let text = String(decoding: shared.bytes, as: UTF8.self)
                switch dispatched {
                case .touch(let touch):
                    let values = [
                        ("x", touch.location.x), ("local_x", touch.local.x), ("prev_x", touch.previous.x),
                        ("y", touch.location.y), ("local_y", touch.local.y), ("prev_y", touch.previous.y),
                    ]
                    for (key, value) in values {
                        #expect(field(key, in: text).flatMap { Double($0) } == (value * 100).rounded() / 100, "\(key)")
                    }
                    touches += 1
                case .gesture(_, let gesture):
                    #expect(field("x", in: text).flatMap { Double($0) } == (gesture.location.x * 100).rounded() / 100)
                    #expect(field("y", in: text).flatMap { Double($0) } == (gesture.location.y * 100).rounded() / 100)
                    gestures += 1
                default: break
                }
            }
        }
        for round in 0..<60 {
            for finger in UInt32(1)...20 {
                // Down on the first round, then moves; some land on -0.0 or 0, some keep their y (prev_y is y).
                let phase: TouchPhase = round == 0 ? .down : (round == 59 ? .up : .move)
                let x = round % 7 == 3 ? (finger % 2 == 0 ? -0.0 : 0) : random(200)
                send(phase, finger: finger, x: x, y: round % 5 == 2 ? 50 : random(100) - 0.005)
            }
        }
        // One finger alone drags: its gesture lines are where its touch lines put it.
        for step in 0..<30 {
            let phase: TouchPhase = step == 0 ? .down : (step == 29 ? .up : .move)
            send(phase, finger: 21, x: 10 + Double(step) * 1.37, y: 20 + Double(step % 4) * 0.5)
        }
        #expect(touches == 1_230 && gestures > 20)
    }
}
