import Testing
import TouchCore
import TouchGestures
import TouchJSON
import TouchScene
import TouchWire

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

    @Test("an id whose string is not UTF-8 is bad JSON (it could not be echoed exactly); escapes are fine")
    func idNotUTF8() {
        let bad: [UInt8] = Array(#"{"op":"ping","id":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let (badID, badResult) = RequestDecoder.decode(bad)
        #expect(badID == nil)
        guard case .failure(let error) = badResult else {
            Issue.record("accepted an id that is not UTF-8")
            return
        }
        #expect(error.code == .badJSON)
        let (goodID, goodResult) = RequestDecoder.decode(Array(#"{"op":"ping","id":"caf\u00e9 é"}"#.utf8))
        #expect(goodID == .string("café é"))
        #expect((try? goodResult.get()) == .ping)
    }

    /// The intern table never shrinks, so what a client may send without the scene permission must not reach it:
    /// a `set-scene` is decoded before the engine checks the permission (and may then be refused), and its gesture
    /// names are interned only by the recognizers of a scene that is installed.
    @Test("decoding a set-scene interns none of its gesture names; making its recognizers does")
    func decodingInternsNothing() throws {
        let name = "never-installed-\(UInt64.random(in: 0...UInt64.max))"
        let line =
            #"{"op":"set-scene","id":1,"scene":{"size":[10,10],"regions":[{"id":"r","frame":[0,0,10,10],"#
            + #""gestures":[{"type":"tap","name":""# + name + #""}]}]}}"#
        guard case .setScene(let scene) = try RequestDecoder.decode(Array(line.utf8)).result.get() else {
            Issue.record("not decoded as set-scene")
            return
        }
        #expect(InternedString.existing(name) == nil)
        let spec = try #require(scene.regions.first?.gestures.first)
        #expect(spec.name == name)
        let recognizer = Recognizer(spec: spec)
        #expect(InternedString.existing(name) == recognizer.nameID)
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
            "knob", fields: try JSONParser.parse(#"{"frame": [50, 50, 20, 20], "hidden": true}"#),
            in: SceneIndex(scene: Self.scene))
        #expect(updated.regions[0].children[0].frame == Rect(x: 50, y: 50, width: 20, height: 20))
        #expect(updated.regions[0].children[0].hidden)
        #expect(updated.regions[0].children[0].draggable)  // untouched fields stay

        let added = try SceneEditor.addRegion(
            try JSONParser.parse(#"{"id": "badge", "frame": [1, 1, 5, 5]}"#), parent: "panel",
            to: SceneIndex(scene: Self.scene))
        #expect(added.regions[0].children.map(\.id) == ["knob", "badge"])

        let removed = try SceneEditor.removeRegion("knob", from: SceneIndex(scene: Self.scene))
        #expect(removed.regions[0].children.isEmpty)

        #expect(throws: SceneEditor.EditError.notFound("ghost")) {
            try SceneEditor.removeRegion("ghost", from: SceneIndex(scene: Self.scene))
        }

        // Several at once: a child inside a removed parent is not counted again; absent ids are skipped.
        let several = try #require(
            SceneEditor.removeRegions(["poly", "ghost", "panel", "knob", "poly"], from: SceneIndex(scene: Self.scene)))
        #expect(several.scene.regions.isEmpty)
        #expect(several.removed == ["poly", "panel"])
        let child = try #require(SceneEditor.removeRegions(["knob"], from: SceneIndex(scene: Self.scene)))
        #expect(child.scene.regions.map(\.id) == ["panel", "poly"])
        #expect(child.scene.regions[0].children.isEmpty)
        #expect(SceneEditor.removeRegions(["ghost"], from: SceneIndex(scene: Self.scene)) == nil)
        #expect(throws: SceneEditor.EditError.self) {
            try SceneEditor.addRegion(
                try JSONParser.parse(#"{"id": "poly", "frame": [0, 0, 1, 1]}"#), parent: nil,
                to: SceneIndex(scene: Self.scene))
        }
        #expect(throws: SceneEditor.EditError.self) {
            try SceneEditor.updateRegion(
                "panel", fields: try JSONParser.parse(#"{"frame": [0, 0, -1, 1]}"#), in: SceneIndex(scene: Self.scene))
        }
    }
}
