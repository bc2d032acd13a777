import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchWire

/// Every request kind gets exactly one reply, with its id echoed exactly (docs/protocol.md, "Requests").
@Suite("Engine: requests and their replies")
struct RequestReplyTests {
    /// Ids as written on the wire, and as they must come back: strings, integers, and 64-bit integers a Double
    /// would round (2^53 + 1) or cannot hold at all (the Int64 limits).
    @Test(
        "ping echoes its id exactly",
        arguments: [
            #""a""#, #""with \"quotes\" and ünïcode""#, "0", "42", "-7", "9007199254740993", "9223372036854775807",
            "-9223372036854775808",
        ])
    func pingEchoesID(id: String) throws {
        let harness = EngineHarness()
        let client = try harness.client()
        _ = harness[client].take()
        let reply = harness.request(#"{"op":"ping","id":\#(id)}"#, from: client)
        try #require(reply.count == 1)
        #expect(reply[0].type == "reply")
        if id.hasPrefix("\"") {
            // A string comes back as the same string (the writer may escape it differently).
            #expect(reply[0]["id"] == (try JSONParser.parse(id)))
        } else {
            // An integer comes back digit for digit.
            #expect(reply[0].idSource == id)
        }
        #expect(reply[0].bool("ok") == true)
        #expect(reply[0].bool("pong") == true)
    }

    @Test("a request without an id gets a reply without one")
    func noID() throws {
        let harness = EngineHarness()
        let client = try harness.client()
        let reply = harness.request(#"{"op":"ping"}"#, from: client)
        #expect(reply.map(\.text) == [#"{"type":"reply","ok":true,"pong":true}"#])
    }

    @Test("subscribe and unsubscribe reply ok with their ids")
    func subscribeAndUnsubscribe() throws {
        let harness = EngineHarness()
        let client = try harness.client()
        let subscribed = harness.request(#"{"op":"subscribe","id":1,"events":["touch"]}"#, from: client)
        #expect(subscribed.map(\.text) == [#"{"type":"reply","id":1,"ok":true}"#])
        #expect(harness.engine.subscriberCount == 1)
        let unsubscribed = harness.request(#"{"op":"unsubscribe","id":"bye"}"#, from: client)
        #expect(unsubscribed.map(\.text) == [#"{"type":"reply","id":"bye","ok":true}"#])
        #expect(harness.engine.subscriberCount == 0)
    }

    @Test("devices lists every device as the hello does, in index order, each with its stuck-touch count")
    func devices() throws {
        let harness = EngineHarness()
        _ = try harness.addDevice(Fixtures.touchscreen(key: "event3"))
        _ = try harness.addDevice(Fixtures.touchscreen(key: "event7"))
        let client = try harness.client()
        let hello = try #require(harness[client].take().first)
        let reply = try #require(harness.request(#"{"op":"devices","id":5}"#, from: client).first)
        #expect(reply.idSource == "5")
        let devices = try #require(reply["devices"]?.array)
        #expect(devices.map { $0["device"]?.string } == ["event3", "event7"])
        #expect(devices.map { $0["node"]?.string } == ["/dev/input/event3", "/dev/input/event7"])
        #expect(devices.map { $0["stuck_cancels"]?.number } == [0, 0])
        // The rest of each entry is the hello's.
        let withoutCount = devices.map { device -> [String] in
            guard case .object(let fields, _) = device else { return [] }
            return fields.filter { $0.key != "stuck_cancels" }.map { "\($0.key)=\($0.value)" }
        }
        let helloDevices = try #require(hello["devices"]?.array).map { device -> [String] in
            guard case .object(let fields, _) = device else { return [] }
            return fields.map { "\($0.key)=\($0.value)" }
        }
        #expect(withoutCount == helloDevices)
    }

    @Test("get-scene returns the scene in the scene file's format")
    func getScene() throws {
        let harness = EngineHarness()
        let client = try harness.client()
        let reply = try #require(harness.request(#"{"op":"get-scene","id":"s"}"#, from: client).first)
        #expect(reply.bool("ok") == true)
        let scene = try #require(reply["scene"])
        #expect(scene["size"]?.numbers == [1024, 1024])
        let regions = try #require(scene["regions"]?.array)
        #expect(regions.map { $0["id"]?.string } == ["button", "panel"])
        #expect(regions[0]["frame"]?.numbers == [100, 200, 200, 100])
        #expect(regions[1]["children"]?.array?.first?["id"]?.string == "knob")
    }

    /// Each change to the scene replies with the version it made: 1 at start, one more per change.
    @Test("set-scene, add-region, update-region and remove-region reply with the new version")
    func sceneChanges() throws {
        let harness = EngineHarness()
        let root = try harness.client(Fixtures.root)
        let requests = [
            #"{"op":"set-scene","id":1,"scene":{"size":[800,600],"regions":[{"id":"a","frame":[0,0,10,10]}]}}"#,
            #"{"op":"add-region","id":2,"region":{"id":"b","frame":[20,20,10,10]}}"#,
            #"{"op":"add-region","id":3,"parent":"b","region":{"id":"c","frame":[1,1,5,5]}}"#,
            #"{"op":"update-region","id":4,"region":"a","set":{"frame":[0,0,50,50]}}"#,
            #"{"op":"remove-region","id":5,"region":"b"}"#,
        ]
        for (index, request) in requests.enumerated() {
            let reply = try #require(harness.request(request, from: root).first)
            #expect(reply.idSource == String(index + 1))
            #expect(reply.bool("ok") == true, "\(reply)")
            #expect(reply.number("version") == Double(index + 2))
        }
        #expect(harness.engine.sceneVersion == 6)
        // What the edits made, read back: a (resized) alone; b and its child c are gone.
        let scene = try #require(harness.request(#"{"op":"get-scene"}"#, from: root).first?["scene"])
        #expect(scene["size"]?.numbers == [800, 600])
        #expect(scene["regions"]?.array?.map { $0["id"]?.string } == ["a"])
        #expect(scene["regions"]?.array?.first?["frame"]?.numbers == [0, 0, 50, 50])
    }

    @Test("requests of one client are answered in order, one reply each, also when sent in one read")
    func pipelinedInOrder() throws {
        let harness = EngineHarness()
        let client = try harness.client()
        _ = harness[client].take()
        let batch = (1...50).map { #"{"op":"ping","id":\#($0)}"# + "\n" }.joined()
        harness.sendBytes(Array(batch.utf8), from: client)
        let replies = harness[client].take()
        #expect(replies.map(\.idSource) == (1...50).map { String($0) })
    }

    @Test("a request split across reads is answered once its newline arrives")
    func splitAcrossReads() throws {
        let harness = EngineHarness()
        let client = try harness.client()
        _ = harness[client].take()
        harness.sendBytes(Array(#"{"op":"pi"#.utf8), from: client)
        #expect(harness[client].take().isEmpty)
        harness.sendBytes(Array(#"ng","id":9}"#.utf8) + [UInt8(ascii: "\r"), UInt8(ascii: "\n")], from: client)
        #expect(harness[client].take().map(\.text) == [#"{"type":"reply","id":9,"ok":true,"pong":true}"#])
    }
}
