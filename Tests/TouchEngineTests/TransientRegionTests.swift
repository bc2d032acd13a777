import Testing
import TouchCore
import TouchEngine
import TouchScene
import TouchTestKit
import TouchWire

/// `add-region` with `"transient": true` (docs/protocol.md): the region goes when the connection that added it
/// closes, however it closes, so a client that crashes leaves no region behind (touchd-actions relies on it).
@Suite("Engine: transient regions")
struct TransientRegionTests {
    /// Root adds regions; a watcher subscribes to touches and scene notices; one device.
    func setUp(settings: Engine.Settings = Fixtures.settings()) throws -> (
        EngineHarness, DeviceHandle, owner: ClientID, watcher: ClientID
    ) {
        let harness = EngineHarness(settings: settings)
        let device = try harness.addDevice()
        let owner = try harness.client(Fixtures.root)
        _ = harness[owner].take()
        let watcher = try harness.client()
        try harness.subscribe(watcher, #""events":["touch","scene"]"#)
        return (harness, device, owner, watcher)
    }

    func regionIDs(_ harness: EngineHarness) throws -> [String] {
        let reader = try harness.client(Fixtures.root)
        let scene = try #require(harness.request(#"{"op":"get-scene"}"#, from: reader).last?["scene"])
        harness.connectionLost(reader)
        return (scene["regions"]?.array ?? []).compactMap { $0["id"]?.string }
    }

    @Test("a transient region goes when its client's connection is lost; a plain one of the same client stays")
    func removedOnClose() throws {
        let (harness, _, owner, watcher) = try setUp()
        let added = harness.request(
            #"{"op":"add-region","id":1,"transient":true,"region":{"id":"edge","frame":[0,0,20,1024]}}"#, from: owner)
        #expect(added.last?.bool("ok") == true)
        harness.request(
            #"{"op":"add-region","id":2,"transient":true,"parent":"panel","region":{"id":"inner","frame":[0,0,5,5]}}"#,
            from: owner)
        harness.request(#"{"op":"add-region","id":3,"region":{"id":"kept","frame":[900,0,20,20]}}"#, from: owner)
        #expect(try regionIDs(harness) == ["button", "panel", "edge", "kept"])
        _ = harness[watcher].take()

        harness.connectionLost(owner)  // as a crash or SIGKILL looks to the daemon: the socket closes
        let notices = harness[watcher].take()
        #expect(notices.types == ["scene-changed"])
        #expect(notices.first?.string("source") == "client \(owner) closed (its transient regions edge, inner)")
        // button, panel, knob, kept: 1 + 3 edits + this removal.
        #expect(notices.first?["scene"]?["regions"]?.number == 4)
        #expect(notices.first?["scene"]?["version"]?.number == 5)
        #expect(try regionIDs(harness) == ["button", "panel", "kept"])
    }

    @Test("a finger on a transient region is cancelled when the region goes with its client")
    func fingerCancelled() throws {
        let (harness, device, owner, watcher) = try setUp()
        harness.request(
            #"{"op":"add-region","transient":true,"region":{"id":"edge","frame":[0,0,20,1024]}}"#, from: owner)
        // Raw (40, 2000) is scene (10, 500): on the edge.
        harness.feed(EventScript(start: Fixtures.seconds(1)).down(id: 1, x: 40, y: 2000), from: device)
        #expect(harness[watcher].take().ofType("down").first?.string("region") == "edge")
        harness.setClock(Fixtures.seconds(2))
        harness.shutdownWrite(owner)  // a clean close: end of file, then the connection closes
        let after = harness[watcher].take()
        #expect(after.types == ["cancel", "scene-changed"])
        #expect(after.first?.string("region") == "edge")
        #expect(after.first?.number("time_us") == 2_000_000)
    }

    @Test("regions removed before the close, by their client or another, are skipped; none left: no scene change")
    func alreadyGone() throws {
        let (harness, _, owner, watcher) = try setUp()
        let other = try harness.client(Fixtures.root)
        harness.request(#"{"op":"add-region","transient":true,"region":{"id":"a","frame":[0,0,5,5]}}"#, from: owner)
        harness.request(#"{"op":"add-region","transient":true,"region":{"id":"b","frame":[5,0,5,5]}}"#, from: owner)
        harness.request(#"{"op":"remove-region","region":"a"}"#, from: owner)
        harness.request(#"{"op":"remove-region","region":"b"}"#, from: other)
        let version = harness.engine.sceneVersion
        _ = harness[watcher].take()
        harness.connectionLost(owner)
        #expect(harness[watcher].take().isEmpty)
        #expect(harness.engine.sceneVersion == version)
    }

    @Test("an id added again without transient is no longer removed with the client")
    func madePermanent() throws {
        let (harness, _, owner, _) = try setUp()
        harness.request(#"{"op":"add-region","transient":true,"region":{"id":"a","frame":[0,0,5,5]}}"#, from: owner)
        harness.request(#"{"op":"remove-region","region":"a"}"#, from: owner)
        harness.request(#"{"op":"add-region","region":{"id":"a","frame":[0,0,5,5]}}"#, from: owner)
        harness.connectionLost(owner)
        #expect(try regionIDs(harness).contains("a"))
    }

    @Test("another client's region of the same id, added after the transient one was removed, stays at the close")
    func otherClientsRegionOfSameID() throws {
        let (harness, _, owner, _) = try setUp()
        let other = try harness.client(Fixtures.root)
        harness.request(#"{"op":"add-region","transient":true,"region":{"id":"a","frame":[0,0,5,5]}}"#, from: owner)
        harness.request(#"{"op":"remove-region","region":"a"}"#, from: other)
        let added = harness.request(#"{"op":"add-region","region":{"id":"a","frame":[0,0,9,9]}}"#, from: other)
        #expect(added.last?.bool("ok") == true)
        harness.connectionLost(owner)
        #expect(try regionIDs(harness) == ["button", "panel", "a"])
    }

    @Test("a transient region inside a parent that another client removed: the id added again later stays")
    func parentRemovedByOther() throws {
        let (harness, _, owner, _) = try setUp()
        let other = try harness.client(Fixtures.root)
        harness.request(
            #"{"op":"add-region","transient":true,"parent":"panel","region":{"id":"a","frame":[0,0,5,5]}}"#,
            from: owner)
        harness.request(#"{"op":"remove-region","region":"panel"}"#, from: other)
        harness.request(#"{"op":"add-region","region":{"id":"a","frame":[0,0,9,9]}}"#, from: other)
        harness.connectionLost(owner)
        #expect(try regionIDs(harness) == ["button", "a"])
    }

    @Test("after a reload of the scene file, the file's region of a transient region's id stays at the close")
    func reloadedFileRegionStays() throws {
        let (harness, _, owner, _) = try setUp()
        harness.request(
            #"{"op":"add-region","transient":true,"region":{"id":"edge","frame":[0,0,20,1024]}}"#, from: owner)
        let file = Fixtures.scene(#"{"size": [1024, 1024], "regions": [{"id": "edge", "frame": [0, 0, 30, 1024]}]}"#)
        harness.engine.reloadScene(
            .success(file), path: "/etc/touchd/scene.json", reason: "SIGHUP", at: Fixtures.seconds(1))
        harness.pump()
        let version = harness.engine.sceneVersion
        harness.connectionLost(owner)
        #expect(try regionIDs(harness) == ["edge"])
        #expect(harness.engine.sceneVersion == version)
    }

    /// docs/protocol.md: the arrangement is for the region, not for its id; a set-scene's regions are its sender's.
    @Test("a set-scene with a region of a transient region's id: that region is the sender's, and stays at the close")
    func setSceneRegionIsTheSenders() throws {
        let (harness, _, owner, _) = try setUp()
        let other = try harness.client(Fixtures.root)
        harness.request(
            #"{"op":"add-region","transient":true,"region":{"id":"edge","frame":[0,0,20,1024]}}"#, from: owner)
        harness.request(
            #"{"op":"set-scene","scene":{"size":[1024,1024],"regions":[{"id":"edge","frame":[0,0,20,1024]}]}}"#,
            from: other)
        let version = harness.engine.sceneVersion
        harness.connectionLost(owner)
        #expect(try regionIDs(harness) == ["edge"])
        #expect(harness.engine.sceneVersion == version)
    }

    /// Removing them one at a time re-read and re-validated the whole scene once per region, in the daemon's loop:
    /// 2,000 took 85 s of a debug build after the client closed. One edit takes about what one add takes.
    @Test("a client's many transient regions go in one edit, not one per region")
    func manyRemovedAtOnce() throws {
        let (harness, _, owner, watcher) = try setUp()
        let count = 200
        let clock = ContinuousClock()
        let adding = clock.measure {
            for index in 0..<count {
                harness.request(
                    #"{"op":"add-region","transient":true,"region":{"id":"t\#(index)","frame":[0,0,5,5]}}"#,
                    from: owner)
            }
        }
        _ = harness[watcher].take()
        let closing = clock.measure { harness.connectionLost(owner) }
        #expect(harness[watcher].take().types == ["scene-changed"])
        #expect(try regionIDs(harness) == ["button", "panel"])
        // All the adds took `count` edits of a scene growing to `count` regions; the close is one edit.
        #expect(closing * 20 < adding, "closing \(closing), adding \(adding)")
    }

    @Test("a refused add is not remembered: the region of that id another client adds later stays")
    func refusedAddNotRemembered() throws {
        let (harness, _, owner, _) = try setUp()
        let reply = harness.request(
            #"{"op":"add-region","transient":true,"region":{"id":"button","frame":[0,0,5,5]}}"#, from: owner)
        #expect(reply.last?.errorCode == "invalid-scene")  // duplicate id
        harness.connectionLost(owner)
        #expect(try regionIDs(harness) == ["button", "panel"])
    }

    @Test("transient must be true or false")
    func transientIsBool() throws {
        let (harness, _, owner, _) = try setUp()
        let reply = harness.request(
            #"{"op":"add-region","transient":"yes","region":{"id":"a","frame":[0,0,5,5]}}"#, from: owner)
        #expect(reply.last?.errorCode == "bad-request")
        #expect(reply.last?["error"]?["message"]?.string == "transient: expected true or false, found string")
    }

    /// The owner also subscribes and stops reading: it overflows while an event is being fanned out. Its regions
    /// go after that fan-out, not inside it: the other subscriber gets each event once, in order, then the change.
    @Test("a client closed for overflow in the middle of a fan-out loses its regions after it, events intact")
    func overflowDuringFanOut() throws {
        let (harness, device, owner, watcher) = try setUp(settings: Fixtures.settings(queueBytes: 4096))
        harness.request(
            #"{"op":"add-region","transient":true,"region":{"id":"edge","frame":[0,0,20,1024]}}"#, from: owner)
        try harness.subscribe(owner, #""events":["touch"]"#)
        harness[owner].capacity = 0
        _ = harness[watcher].take()
        // Downs and ups are never coalesced: 40 taps overflow a 4 KiB queue.
        let script = EventScript(start: Fixtures.seconds(1))
        for finger in 1...40 { script.down(id: Int32(finger), x: 2000 + Int32(finger) * 4, y: 2000).up() }
        harness.feed(script, from: device)
        #expect(harness[owner].isClosed)
        let lines = harness[watcher].take()
        #expect(lines.ofType("scene-changed").count == 1)
        #expect(lines.ofType("down").compactMap { $0.number("finger") } == (1...40).map(Double.init))
        #expect(lines.ofType("up").compactMap { $0.number("finger") } == (1...40).map(Double.init))
        #expect(
            lines.types.filter { $0 != "scene-changed" } == Array(repeating: ["down", "up"], count: 40).flatMap { $0 })
        #expect(try regionIDs(harness) == ["button", "panel"])
    }
}
