import Testing
import TouchCore
import TouchGestures
import TouchJSON
import TouchScene
import TouchWire

/// `subscribe`'s `fields`: which names it takes, and the lines written with a selection, against lines worked out
/// by hand.
@Suite("Field selection")
struct FieldSelectionTests {
    func subscription(_ line: String) -> Result<Request, RequestError> {
        RequestDecoder.decode(Array(line.utf8)).result
    }

    @Test("names select their keys; core names select nothing more; an unknown name is an error naming it")
    func names() throws {
        #expect(try FieldSelection.named(["region", "raw_x", "x", "kind"]).get() == [.region, .rawX])
        #expect(try FieldSelection.named([]).get() == [])
        #expect(
            try FieldSelection.named(FieldSelection.selectable.map(\.name)).get() == .all,
            "every selectable name together is the whole line")
        #expect(FieldSelection.named(["dx", "z"]) == .failure(FieldSelection.UnknownField(name: "z")))

        guard case .success(.subscribe(let chosen)) = subscription(#"{"op":"subscribe","fields":["prev_x","tool"]}"#)
        else {
            Issue.record("a subscribe with fields was refused")
            return
        }
        #expect(chosen.fields == [.previousX, .tool])
        guard case .success(.subscribe(let plain)) = subscription(#"{"op":"subscribe"}"#) else {
            Issue.record("a plain subscribe was refused")
            return
        }
        #expect(plain.fields == .all)

        guard case .failure(let error) = subscription(#"{"op":"subscribe","fields":["x","colour"]}"#) else {
            Issue.record("an unknown field was taken")
            return
        }
        #expect(error.code == .badRequest)
        #expect(error.message.hasPrefix("fields: unknown field 'colour'; expected any of "))
        #expect(error.message.contains("raw_x") && error.message.contains("since_down_us"))
        // The first unknown name of the request's list, whatever the others; a long one cut short.
        for _ in 0..<5 {
            guard case .failure(let first) = subscription(#"{"op":"subscribe","fields":["dx","b","a","c"]}"#) else {
                Issue.record("unknown fields were taken")
                return
            }
            #expect(first.message.hasPrefix("fields: unknown field 'b';"))
        }
        let long = String(repeating: "q", count: 100_000)
        guard case .failure(let clipped) = subscription(#"{"op":"subscribe","fields":[""# + long + #""]}"#) else {
            Issue.record("a long unknown field was taken")
            return
        }
        #expect(clipped.message.hasPrefix("fields: unknown field '" + String(repeating: "q", count: 64) + "…';"))
        #expect(clipped.message.count < 1_000)

        guard case .failure(let notList) = subscription(#"{"op":"subscribe","fields":"x"}"#) else {
            Issue.record("a string for fields was taken")
            return
        }
        #expect(notList.message == "fields: expected an array, found string")
    }

    @Test("a selection as it bears on each kind of line: that kind's keys, and all of them is the whole line")
    func perKind() {
        #expect(FieldSelection([]).forLines(of: .touch) == [])
        #expect(FieldSelection([.vx, .scale]).forLines(of: .touch) == [], "no touch line has vx or scale")
        #expect(FieldSelection([.vx, .dx, .region]).forLines(of: .gesture) == [.vx, .dx])
        #expect(FieldSelection.touchKeys.forLines(of: .touch) == .all)
        #expect(FieldSelection.touchKeys.forLines(of: .gesture) == [.taps, .dx, .dy])
        #expect(FieldSelection.gestureKeys.forLines(of: .gesture) == .all)
        #expect(FieldSelection([]).forLines(of: .frame) == .all && FieldSelection([.dx]).forLines(of: .region) == .all)
        #expect(FieldSelection.touchKeys.union(.gestureKeys) == .all, "every key is a touch or a gesture key")
        #expect(FieldSelection.selectable.count == 26 && Set(FieldSelection.selectable.map(\.name)).count == 26)
    }

    /// A finger down at (10.5, 7) with pressure 30 and moved to (12.25, 7) on region `pad` (0, 0, 50, 50), at
    /// 1 ms, as the dispatcher hands them on.
    func padTouches() throws -> [DispatchedTouch] {
        let scene = try SceneLoader.parse(
            #"{"size": [100, 100], "regions": [{"id": "pad", "frame": [0, 0, 50, 50]}]}"#, file: "pad.json")
        let dispatcher = Dispatcher(scene: scene)
        let device = DeviceTag(index: 3, name: "event3")
        var touches: [DispatchedTouch] = []
        for (phase, x, pressure) in [(TouchPhase.down, 10.5, Int32(30)), (.move, 12.25, nil)] {
            var contact = ContactState(x: Int32(x), y: 7)
            contact.pressure = pressure
            let event = FingerEvent(
                phase: phase, finger: FingerID(1), slot: 0, time: EventTime(microseconds: 1_000), contact: contact)
            for case .touch(let touch) in dispatcher.handle(
                .finger(MappedFingerEvent(event: event, position: Point(x: x, y: 7))), device: device)
            {
                touches.append(touch)
            }
        }
        return touches
    }

    func text(_ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("touch lines: the core, then the selected keys in the whole line's order, an attribute only when reported")
    func touchLines() throws {
        let touches = try padTouches()
        try #require(touches.count == 2)
        let fields: FieldSelection = [.pressure, .rawX, .dx, .region]
        #expect(
            text { DispatchEventEncoder.encode(touches[0], selecting: fields, into: &$0) }
                == #"{"type":"down","finger":1,"time_us":1000,"region":"pad","x":10.5,"y":7,"dx":0,"raw_x":10,"#
                + #""pressure":30}"# + "\n")
        #expect(
            text { DispatchEventEncoder.encode(touches[1], selecting: fields, into: &$0) }
                == #"{"type":"move","finger":1,"time_us":1000,"region":"pad","x":12.25,"y":7,"dx":1.75,"raw_x":12}"#
                + "\n")
        #expect(
            text { DispatchEventEncoder.encode(touches[1], selecting: [.device, .slot], into: &$0) }
                == #"{"type":"move","device":"event3","finger":1,"slot":0,"time_us":1000,"x":12.25,"y":7}"# + "\n")
        #expect(
            text { DispatchEventEncoder.encode(touches[1], selecting: [], into: &$0) }
                == #"{"type":"move","finger":1,"time_us":1000,"x":12.25,"y":7}"# + "\n")
        for touch in touches {
            #expect(
                text { DispatchEventEncoder.encode(touch, selecting: .all, into: &$0) }
                    == text { DispatchEventEncoder.encode(touch, into: &$0) })
            // Every key a touch line has, and only some of a gesture line's: the whole touch line (a subscriber's
            // selection goes to the encoder whole, whatever the line's kind).
            #expect(
                text { DispatchEventEncoder.encode(touch, selecting: FieldSelection.touchKeys.union(.vx), into: &$0) }
                    == text { DispatchEventEncoder.encode(touch, into: &$0) })
        }
    }

    @Test("gesture lines: the core, then the selected keys of the gesture's kind")
    func gestureLines() {
        var drag = GestureEvent(
            name: "slide", kind: .drag, event: .changed, time: EventTime(microseconds: -7),
            location: Point(x: 1.375, y: -2), fingers: 1)
        drag.translation = Point(x: 4, y: -0.5)
        drag.velocity = Point(x: 3.5, y: 120)
        let core =
            #"{"type":"gesture","region":"r","gesture":"slide","kind":"drag","state":"changed","time_us":-7,"#
            + #""x":1.38,"y":-2,"fingers":1"#
        #expect(text { DispatchEventEncoder.encode(drag, region: "r", selecting: [], into: &$0) } == core + "}\n")
        #expect(
            text { DispatchEventEncoder.encode(drag, region: "r", selecting: [.vx, .dy, .scale], into: &$0) }
                == core + #","dy":-0.5,"vx":3.5}"# + "\n")

        var pinch = GestureEvent(
            name: "zoom", kind: .pinch, event: .ended, time: EventTime(microseconds: 5), location: Point(x: 0, y: 0),
            fingers: 2)
        pinch.scale = 1.23456
        pinch.rotation = -10
        #expect(
            text { DispatchEventEncoder.encode(pinch, region: "r", selecting: [.scale, .vx], into: &$0) }
                == #"{"type":"gesture","region":"r","gesture":"zoom","kind":"pinch","state":"ended","time_us":5,"#
                + #""x":0,"y":0,"fingers":2,"scale":1.2346}"# + "\n")
        var swipe = GestureEvent(
            name: "flick", kind: .swipe, event: .ended, time: EventTime(microseconds: 5), location: Point(x: 1, y: 2),
            fingers: 1)
        swipe.direction = .left
        #expect(
            text { DispatchEventEncoder.encode(swipe, region: "r", selecting: [.direction], into: &$0) }
                == #"{"type":"gesture","region":"r","gesture":"flick","kind":"swipe","state":"ended","time_us":5,"#
                + #""x":1,"y":2,"fingers":1,"direction":"left"}"# + "\n")
        for gesture in [drag, pinch, swipe] {
            #expect(
                text { DispatchEventEncoder.encode(gesture, region: "r", selecting: .all, into: &$0) }
                    == text { DispatchEventEncoder.encode(gesture, region: "r", into: &$0) })
            let everyGestureKey = FieldSelection.gestureKeys.union(.rawX)
            #expect(
                text { DispatchEventEncoder.encode(gesture, region: "r", selecting: everyGestureKey, into: &$0) }
                    == text { DispatchEventEncoder.encode(gesture, region: "r", into: &$0) })
        }
    }
}
