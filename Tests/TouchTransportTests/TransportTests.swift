import Testing
import TouchCore
import TouchJSON
import TouchScene
import TouchTransport

@Suite("Transport: framing, queues, requests")
struct TransportTests {
    @Test("the same bytes give the same lines however they are split (every split point)")
    func framingSplits() {
        let text = Array(#"{"op":"ping"}"#.utf8) + [10] + Array(#"{"op":"devices","id":2}"#.utf8) + [13, 10, 10]
        var whole = LineFramer(maximumLineLength: 100)
        var expected: [LineFramer.Item] = []
        whole.append(text[...], into: &expected)
        #expect(expected.count == 2)
        for split in 0...text.count {
            var framer = LineFramer(maximumLineLength: 100)
            var items: [LineFramer.Item] = []
            framer.append(text[0..<split], into: &items)
            framer.append(text[split...], into: &items)
            #expect(items == expected, "split at \(split)")
        }
    }

    @Test("an oversized line is reported once and skipped; the next line is read")
    func oversized() {
        var framer = LineFramer(maximumLineLength: 10)
        var items: [LineFramer.Item] = []
        framer.append(ArraySlice(Array(repeating: UInt8(ascii: "x"), count: 25)), into: &items)
        #expect(items.isEmpty && framer.bufferedCount == 0)  // nothing buffered beyond the limit
        framer.append(
            ArraySlice(Array(repeating: UInt8(ascii: "x"), count: 5) + [10] + Array("ok".utf8) + [10]), into: &items)
        #expect(items == [.oversized(length: 30), .line(Array("ok".utf8))])
    }

    @Test("a full queue coalesces moves per finger, keeps every essential line, then overflows")
    func queuePolicy() {
        var queue = OutboundQueue(limitBytes: 100)
        #expect(queue.enqueue(Array(repeating: 0x61, count: 20), kind: .essential) == .queued)
        for _ in 0..<3 { _ = queue.enqueue(Array(repeating: 0x62, count: 20), kind: .move(finger: 1)) }
        #expect(queue.byteCount == 80)
        // This one crosses the limit: the two older moves of finger 1 go.
        #expect(queue.enqueue(Array(repeating: 0x63, count: 30), kind: .move(finger: 2)) == .coalesced(dropped: 2))
        #expect(queue.byteCount == 70)
        var written: [UInt8] = []
        queue.flush { raw in
            written += raw
            return raw.count
        }
        #expect(
            written == Array(repeating: 0x61, count: 20) + Array(repeating: 0x62, count: 20)
                + Array(repeating: 0x63, count: 30))
        #expect(queue.isEmpty)

        var full = OutboundQueue(limitBytes: 50)
        _ = full.enqueue(Array(repeating: 0, count: 40), kind: .essential)
        #expect(full.enqueue(Array(repeating: 0, count: 20), kind: .essential) == .overflow)
    }

    @Test("a partly written line is finished before anything else and never coalesced away")
    func partialWrite() {
        var queue = OutboundQueue(limitBytes: 1000)
        _ = queue.enqueue(Array("move-1-a\n".utf8), kind: .move(finger: 1))
        _ = queue.enqueue(Array("move-1-b\n".utf8), kind: .move(finger: 1))
        var written: [UInt8] = []
        queue.flush { raw in
            let take = min(raw.count, 4)
            written += raw.prefix(take)
            return take  // a short write: the socket took 4 bytes
        }
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("move"))
        var rest: [UInt8] = []
        queue.flush { raw in
            rest += raw
            return raw.count
        }
        #expect(String(decoding: written + rest, as: UTF8.self).contains("move-1-a\n"))
    }

    @Test(
        "bad requests get typed errors",
        arguments: [
            (#"{"op": "ping""#, RequestError.Code.badJSON),
            (#"{"op": "dance"}"#, .unknownOp),
            (#"{"op": "subscribe", "events": ["touch", "smell"]}"#, .badRequest),
            (#"{"op": "set-scene", "scene": {"size": [0, 1]}}"#, .invalidScene),
            (#"{"op": "remove-region"}"#, .badRequest),
            (#"{"op": "ping", "extra": 1}"#, .badRequest),
            // A stray `scene` key on a request that takes none is a bad request, not an invalid scene.
            (#"{"op": "get-scene", "scene": 1}"#, .badRequest),
            (#"{"op": "ping", "id": 1.5}"#, .badRequest),
            (#"{"op": "ping", "id": 1e3}"#, .badRequest),
            (#"{"op": "ping", "id": 9223372036854775808}"#, .badRequest),
            (#"{"op": "ping", "id": {"a": 1}}"#, .badRequest),
            (#"{"op": "ping", "id": [1]}"#, .badRequest),
            (#"{"op": "ping", "id": null}"#, .badRequest),
            (#"{"op": "ping", "id": true}"#, .badRequest),
        ] as [(String, RequestError.Code)])
    func badRequests(line: String, code: RequestError.Code) {
        let (_, result) = RequestDecoder.decode(Array(line.utf8))
        guard case .failure(let error) = result else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(error.code == code)
    }

    @Test("requests decode with their ids")
    func goodRequests() {
        let (id, result) = RequestDecoder.decode(
            Array(#"{"op":"subscribe","id":"a1","events":["gesture"],"regions":["play"]}"#.utf8))
        #expect(id == .string("a1"))
        #expect(result == .success(.subscribe(Subscription(kinds: [.gesture], regions: ["play"]))))
    }

    @Test(
        "ids come back exactly as written: integers to Int64's limits, any string",
        arguments: [
            (#"9223372036854775807"#, RequestID.integer(9_223_372_036_854_775_807)),
            (#"-9223372036854775808"#, .integer(-9_223_372_036_854_775_808)),
            // 2^53 + 1: a Double would turn it into 9007199254740992.
            (#"9007199254740993"#, .integer(9_007_199_254_740_993)),
            (#"0"#, .integer(0)),
            (#""\u00e9\n""#, .string("é\n")),
            (#""""#, .string("")),
        ] as [(String, RequestID)])
    func exactIDs(source: String, expected: RequestID) throws {
        let (id, result) = RequestDecoder.decode(Array(#"{"op":"ping","id":\#(source)}"#.utf8))
        #expect(id == expected)
        #expect(result == .success(.ping))
        let reply = String(decoding: ServerMessages.ok(id: id), as: UTF8.self)
        switch expected {
        case .integer: #expect(reply == #"{"type":"reply","id":\#(source),"ok":true}"# + "\n")
        case .string(let text): #expect(try JSONParser.parse(String(reply.dropLast()))["id"] == .string(text, line: 1))
        }
    }

    @Test("replies are never dropped and do not count towards the limit; backpressure marks are half and a quarter")
    func repliesAndWaterMarks() {
        var queue = OutboundQueue(limitBytes: 100)
        #expect(queue.enqueue(Array(repeating: 0, count: 30), kind: .reply) == .queued)
        #expect(!queue.isOverHighWater)
        #expect(queue.enqueue(Array(repeating: 0, count: 30), kind: .reply) == .queued)
        #expect(queue.isOverHighWater)  // 60 > 50
        // 260 bytes of replies, far past the limit: still queued, never an overflow.
        #expect(queue.enqueue(Array(repeating: 0, count: 200), kind: .reply) == .queued)
        #expect(queue.byteCount == 260 && queue.eventByteCount == 0)
        // Events are bounded on their own: 90 bytes fit, 120 do not.
        #expect(queue.enqueue(Array(repeating: 1, count: 90), kind: .essential) == .queued)
        #expect(queue.enqueue(Array(repeating: 1, count: 30), kind: .essential) == .overflow)
        var drained = OutboundQueue(limitBytes: 100)
        _ = drained.enqueue(Array(repeating: 0, count: 60), kind: .reply)
        drained.flush { min($0.count, 35) }  // the socket takes 35 of 60: 25 left, at the low-water mark
        #expect(drained.byteCount == 25 && drained.isUnderLowWater && !drained.isOverHighWater)
    }

    @Test("subscription filters by kind, region (null regions on request) and device")
    func filters() {
        let all = Subscription()
        #expect(all.admits(.touch, scope: .unassigned, device: "event3"))
        let play = Subscription(kinds: [.touch, .gesture], regions: ["play"])
        #expect(play.admits(.gesture, scope: .region("play")))
        #expect(!play.admits(.gesture, scope: .region("other")))
        #expect(!play.admits(.touch, scope: .unassigned))
        #expect(!play.admits(.frame, device: "replay"))
        #expect(Subscription(regions: ["play"], unassigned: true).admits(.touch, scope: .unassigned))
        #expect(!Subscription(devices: ["event3"]).admits(.touch, scope: .region("a"), device: "event4"))
        // Notices are not about a region: a regions filter lets them through.
        #expect(Subscription(regions: ["play"]).admits(.scene))
    }
}

@Suite("Scene encoding and editing")
struct SceneEditingTests {
    static let scene = try! SceneLoader.parse(
        """
        {"size": [800, 600], "regions": [
          {"id": "panel", "frame": [0, 0, 400, 300], "shape": {"type": "rounded-rect", "radius": 8},
           "touchable": {"outset": 4}, "z": 1, "intercept": {"slop": 12, "delayMs": 150},
           "gestures": ["tap", {"type": "tap", "name": "double", "taps": 2}, {"type": "swipe", "directions": ["left"]}],
           "children": [{"id": "knob", "frame": [10, 10, 20, 20], "shape": "circle", "draggable": true}]},
          {"id": "poly", "frame": [500, 0, 100, 100], "alpha": 0.5, "hidden": true,
           "shape": {"type": "polygon", "points": [[0, 0], [100, 0], [50, 100]]}}]}
        """, file: "t.json")

    @Test("a scene written and read back is the same scene")
    func roundTrip() throws {
        let bytes = SceneEncoder.encode(Self.scene)
        #expect(try SceneLoader.parse(bytes, file: "again.json") == Self.scene)
    }

    @Test("update, add and remove regions; the result is validated whole")
    func edits() throws {
        let updated = try SceneEditor.updateRegion(
            "knob", fields: try JSONParser.parse(#"{"frame": [50, 50, 20, 20], "hidden": true}"#), in: Self.scene)
        #expect(updated.regions[0].children[0].frame == Rect(x: 50, y: 50, width: 20, height: 20))
        #expect(updated.regions[0].children[0].hidden)
        #expect(updated.regions[0].children[0].draggable)  // untouched fields stay

        let added = try SceneEditor.addRegion(
            try JSONParser.parse(#"{"id": "badge", "frame": [1, 1, 5, 5]}"#), parent: "panel", to: Self.scene)
        #expect(added.regions[0].children.map(\.id) == ["knob", "badge"])

        let removed = try SceneEditor.removeRegion("knob", from: Self.scene)
        #expect(removed.regions[0].children.isEmpty)

        #expect(throws: SceneEditor.EditError.notFound("ghost")) {
            try SceneEditor.removeRegion("ghost", from: Self.scene)
        }
        #expect(throws: SceneEditor.EditError.self) {
            try SceneEditor.addRegion(
                try JSONParser.parse(#"{"id": "poly", "frame": [0, 0, 1, 1]}"#), parent: nil, to: Self.scene)
        }
        #expect(throws: SceneEditor.EditError.self) {
            try SceneEditor.updateRegion(
                "panel", fields: try JSONParser.parse(#"{"frame": [0, 0, -1, 1]}"#), in: Self.scene)
        }
    }
}

@Suite("Event routes from real dispatched events")
struct EventRouteTests {
    @Test("a finger on a region, a finger on nothing, a drag's changes and a frame get the routes a hand count gives")
    func routes() throws {
        let scene = try SceneLoader.parse(
            #"{"size": [100, 100], "regions": [{"id": "pad", "frame": [0, 0, 50, 50], "gestures": ["drag"]}]}"#,
            file: "routes.json")
        let dispatcher = Dispatcher(scene: scene)
        let device = DeviceTag(index: 0, name: "event3")
        var events: [DispatchEvent] = []
        func send(_ phase: TouchPhase, _ finger: UInt32, _ x: Double, _ y: Double, _ ms: Int64) {
            let event = FingerEvent(
                phase: phase, finger: FingerID(finger), slot: Int32(finger), time: EventTime(microseconds: ms * 1000),
                contact: ContactState(x: Int32(x), y: Int32(y)))
            events += dispatcher.handle(
                .finger(MappedFingerEvent(event: event, position: Point(x: x, y: y))), device: device)
        }
        send(.down, 1, 10, 10, 0)
        send(.down, 2, 80, 80, 0)
        events += dispatcher.handle(.frameEnd(EventTime(microseconds: 0)), device: device)
        for step in 1...5 { send(.move, 1, 10 + Double(step) * 10, 10, Int64(step) * 10) }
        let routes = events.map(EventRoute.init)
        #expect(routes[0] == EventRoute(kind: .touch, scope: .region("pad"), device: "event3", queueKind: .essential))
        #expect(routes[1] == EventRoute(kind: .touch, scope: .unassigned, device: "event3", queueKind: .essential))
        #expect(routes[2] == EventRoute(kind: .frame, scope: .none, device: "event3", queueKind: .essential))
        let moves = routes.filter { if case .move = $0.queueKind { true } else { false } }
        #expect(moves.count == 5 && moves.allSatisfy { $0.queueKind == moves[0].queueKind })  // one finger, one key
        let changes = routes.filter { $0.kind == .gesture && $0.queueKind == .gestureChange(key: "pad/drag") }
        #expect(!changes.isEmpty)
        // A client that filters on the pad, without unassigned fingers, gets finger 1 and the drag, not finger 2.
        let padOnly = Subscription(kinds: [.touch, .gesture], regions: ["pad"])
        #expect(routes.filter(padOnly.admits).count == routes.filter { $0.scope == .region("pad") }.count)
        #expect(!padOnly.admits(routes[1]))
    }
}
