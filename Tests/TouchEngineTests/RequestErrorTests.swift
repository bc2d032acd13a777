import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchWire

/// Every error code the engine can give, each from a request that can only get that code; the connection stays
/// usable after each (docs/protocol.md, "Error codes").
@Suite("Engine: request errors")
struct RequestErrorTests {
    /// (line sent by root, code, the id as echoed or nil when none could be read)
    static let cases: [(String, String, String?)] = [
        (#"{"op":"ping","id":1"#, "bad-json", nil),  // unterminated object
        (#"not json"#, "bad-json", nil),
        (#"{"op":"ping","id":1.5}"#, "bad-request", nil),  // a fraction is no id
        (#"{"op":"ping","id":9223372036854775808}"#, "bad-request", nil),  // one past Int64.max
        (#"{"op":"ping","id":null}"#, "bad-request", nil),
        (#"{"op":"ping","id":7,"extra":true}"#, "bad-request", "7"),  // unknown keys are errors
        (#"{"id":"x"}"#, "bad-request", #""x""#),  // no op
        (#"{"op":"subscribe","id":2,"events":["touches"]}"#, "bad-request", "2"),
        (#"{"op":"fly","id":3}"#, "unknown-op", "3"),
        (
            #"{"op":"set-scene","id":4,"scene":{"size":[100,100],"regions":[{"id":"a","frame":[0,0,-1,5]}]}}"#,
            "invalid-scene", "4"
        ),
        (#"{"op":"set-scene","id":5,"scene":{"size":[100,100],"regions":[],"colour":1}}"#, "invalid-scene", "5"),
        (#"{"op":"add-region","id":6,"region":{"id":"button","frame":[0,0,1,1]}}"#, "invalid-scene", "6"),  // duplicate
        (#"{"op":"update-region","id":8,"region":"button","set":{"id":"other"}}"#, "invalid-scene", "8"),
        (#"{"op":"update-region","id":9,"region":"button","set":{"z":"high"}}"#, "invalid-scene", "9"),
        (#"{"op":"remove-region","id":10,"region":"ghost"}"#, "not-found", "10"),
        (#"{"op":"update-region","id":11,"region":"ghost","set":{"z":1}}"#, "not-found", "11"),
        (#"{"op":"add-region","id":12,"parent":"ghost","region":{"id":"n","frame":[0,0,1,1]}}"#, "not-found", "12"),
    ]

    @Test("each malformed or impossible request gets its code, the id when one could be read, and no change")
    func errorCodes() throws {
        for (line, code, id) in Self.cases {
            let harness = EngineHarness()
            let root = try harness.client(Fixtures.root)
            let reply = harness.request(line, from: root)
            try #require(reply.count == 1, "\(line)")
            #expect(reply[0].type == "reply")
            #expect(reply[0].bool("ok") == false)
            #expect(reply[0].errorCode == code, "\(line): \(reply[0])")
            #expect(reply[0].idSource == id, "\(line): \(reply[0])")
            #expect(reply[0]["error"]?["message"]?.string?.isEmpty == false)
            #expect(harness.engine.sceneVersion == 1, "\(line) changed the scene")
            // Still connected and answering.
            #expect(harness.request(#"{"op":"ping","id":"after"}"#, from: root).first?.bool("pong") == true)
        }
    }

    @Test("an invalid scene is refused with the JSON path of what is wrong")
    func invalidScenePath() throws {
        let harness = EngineHarness()
        let root = try harness.client(Fixtures.root)
        let reply = try #require(harness.request(Self.cases[9].0, from: root).first)
        #expect(
            reply["error"]?["message"]?.string
                == "scene.regions[0].frame: width and height must not be negative")
    }

    /// The four scene changes need the scene permission; an ordinary user's are refused, and nothing changes.
    @Test(
        "scene changes from a peer outside the scene groups are permission-denied",
        arguments: [
            #"{"op":"set-scene","id":1,"scene":{"size":[10,10],"regions":[]}}"#,
            #"{"op":"add-region","id":1,"region":{"id":"n","frame":[0,0,1,1]}}"#,
            #"{"op":"update-region","id":1,"region":"button","set":{"hidden":true}}"#,
            #"{"op":"remove-region","id":1,"region":"button"}"#,
        ])
    func permissionDenied(line: String) throws {
        let harness = EngineHarness()
        let watcher = try harness.client(Fixtures.root)
        try harness.subscribe(watcher, #""events":["scene"]"#)
        let user = try harness.client(Fixtures.user)
        let reply = try #require(harness.request(line, from: user).first)
        #expect(reply.errorCode == "permission-denied")
        #expect(reply.idSource == "1")
        #expect(reply["error"]?["message"]?.string == "uid 1000 may not change the scene")
        #expect(harness.engine.sceneVersion == 1)
        #expect(harness[watcher].take().isEmpty)  // no scene-changed
        // The same request from a scene-group member goes through.
        let member = try harness.client(Fixtures.sceneMember)
        #expect(harness.request(line, from: member).first?.number("version") == 2)
    }

    /// `reload` replaces the scene (and calibrations) from the files: the scene permission's, like a set-scene.
    @Test("reload is refused to a peer outside the scene groups, and asks the adapter to reload for a member")
    func reloadNeedsTheScenePermission() throws {
        let harness = EngineHarness()
        let user = try harness.client(Fixtures.user)
        let refused = try #require(harness.request(#"{"op":"reload","id":7}"#, from: user).first)
        #expect(refused.errorCode == "permission-denied")
        #expect(harness.reloads.isEmpty)
        let member = try harness.client(Fixtures.sceneMember)
        let reply = try #require(harness.request(#"{"op":"reload","id":8}"#, from: member).first)
        #expect(reply["ok"] == .bool(true, line: 1))
        #expect(harness.reloads == ["client \(member)"])
    }

    /// maxLineBytes 64: a 100-byte line is skipped up to its newline with one error, and the next line is read.
    @Test("a line over the limit gets line-too-long without an id, and the connection stays")
    func lineTooLong() throws {
        let harness = EngineHarness(settings: Fixtures.settings(maximumLineBytes: 64))
        let client = try harness.client()
        _ = harness[client].take()
        let long = #"{"op":"ping","id":""# + String(repeating: "x", count: 100 - 21) + #""}"#
        #expect(long.utf8.count == 100)
        harness.sendBytes(Array((long + "\n" + #"{"op":"ping","id":2}"# + "\n").utf8), from: client)
        let lines = harness[client].take()
        try #require(lines.count == 2)
        #expect(lines[0].errorCode == "line-too-long")
        #expect(lines[0].idSource == nil)
        #expect(lines[0]["error"]?["message"]?.string == "a line of 100 bytes exceeds the limit of 64")
        #expect(lines[1].idSource == "2")
        #expect(lines[1].bool("pong") == true)
        // A line of exactly the limit is still read.
        let exact = #"{"op":"ping","id":""# + String(repeating: "y", count: 64 - 21) + #""}"#
        #expect(exact.utf8.count == 64)
        #expect(harness.request(exact, from: client).first?.bool("pong") == true)
    }
}
