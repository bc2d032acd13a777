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
