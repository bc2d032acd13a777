import Testing
import TouchCore
import TouchEngine
import TouchScene
import TouchTestKit
import TouchWire

/// Scene changes from clients and from the scene file: versions, notices, and what happens to fingers on
/// regions that go away (docs/protocol.md, "Requests"; docs/scene.md, "Cancel").
@Suite("Engine: scene edits and reloads")
struct SceneChangeTests {
    /// Root (may change the scene), a subscriber to touches and scene notices, one device.
    func setUp() throws -> (EngineHarness, DeviceHandle, root: ClientID, watcher: ClientID) {
        let harness = EngineHarness()
        let device = try harness.addDevice()
        let root = try harness.client(Fixtures.root)
        _ = harness[root].take()
        let watcher = try harness.client()
        try harness.subscribe(watcher, #""events":["touch","scene"]"#)
        return (harness, device, root, watcher)
    }

    @Test("each edit bumps the version once and tells scene subscribers what it is now and who made it")
    func editsNotify() throws {
        let (harness, _, root, watcher) = try setUp()
        harness.request(#"{"op":"add-region","region":{"id":"new","frame":[0,0,10,10]},"parent":"panel"}"#, from: root)
        harness.request(#"{"op":"update-region","region":"new","set":{"frame":[1,1,20,20]}}"#, from: root)
        harness.request(#"{"op":"remove-region","region":"panel"}"#, from: root)
        harness.request(#"{"op":"set-scene","scene":{"size":[640,480],"regions":[]}}"#, from: root)
        let notices = harness[watcher].take()
        #expect(notices.types == Array(repeating: "scene-changed", count: 4))
        #expect(notices.map { $0["scene"]?["version"]?.number } == [2, 3, 4, 5])
        // button, panel, knob, new; the same; button alone (panel took knob and new with it); none.
        #expect(notices.map { $0["scene"]?["regions"]?.number } == [4, 4, 1, 0])
        #expect(notices.last?["scene"]?["width"]?.number == 640)
        #expect(notices.allSatisfy { $0.string("source") == "client \(root)" })
        #expect(harness.engine.sceneVersion == 5)
        #expect(harness.logged("scene version 5 from client \(root): 0 region(s)").count == 1)
    }

    @Test("a new client's hello carries the scene as edited")
    func helloAfterEdit() throws {
        let (harness, _, root, _) = try setUp()
        harness.request(#"{"op":"remove-region","region":"knob"}"#, from: root)
        let late = try harness.client()
        let scene = try #require(harness[late].take().first?["scene"])
        #expect(scene["version"]?.number == 2)
        #expect(scene["regions"]?.number == 2)
    }

    /// The finger goes down on the knob; the knob is removed (or hidden) under it: one cancel for the knob, and
    /// then nothing more of that finger, neither its moves nor the cancel of the device's removal.
    @Test(
        "removing or hiding the region under a live finger cancels that finger once, then it is silent",
        arguments: [
            #"{"op":"remove-region","region":"knob"}"#,
            #"{"op":"update-region","region":"knob","set":{"hidden":true}}"#,
            #"{"op":"update-region","region":"panel","set":{"enabled":false}}"#,
        ])
    func regionGoneUnderFinger(edit: String) throws {
        let (harness, device, root, watcher) = try setUp()
        harness.feed(EventScript(start: Fixtures.seconds(1)).down(id: 1, x: 2400, y: 2400), from: device)
        #expect(harness[watcher].take().ofType("down").first?.string("region") == "knob")
        harness.setClock(Fixtures.seconds(2))
        harness.request(edit, from: root)
        let afterEdit = harness[watcher].take()
        #expect(afterEdit.types == ["cancel", "scene-changed"])
        #expect(afterEdit.first?.string("region") == "knob")
        #expect(afterEdit.first?.number("finger") == 1)
        #expect(afterEdit.first?.number("time_us") == 2_000_000)
        harness.feed(EventScript(start: Fixtures.seconds(3)).move(x: 2440, y: 2400), from: device)
        harness.removeDevice(device)  // the decoder still has the finger down: it cancels it
        #expect(harness[watcher].take().touches.isEmpty)
    }

    @Test("a finger on a region that only moved or stayed keeps it; the next down hits the new scene")
    func survivingRegionKeepsFinger() throws {
        let (harness, device, root, watcher) = try setUp()
        harness.feed(EventScript(start: Fixtures.seconds(1)).down(id: 1, x: 800, y: 1000), from: device)
        // The button moves right by 400: the finger stays the button's, local to its new place (500, 200).
        harness.request(#"{"op":"update-region","region":"button","set":{"frame":[500,200,200,100]}}"#, from: root)
        let script = EventScript(start: Fixtures.seconds(2))
        script.move(x: 840, y: 1000).up()
        script.down(id: 2, x: 800, y: 1000)  // where the button was: nothing there now
        harness.feed(script, from: device)
        let touches = harness[watcher].take().touches
        #expect(touches.map { $0.type! } == ["down", "move", "up", "down"])
        #expect(touches[1].string("region") == "button")
        #expect((touches[1].number("local_x"), touches[1].number("local_y")) == (-290, 50))
        #expect(touches[3]["region"]?.isNull == true)
    }

    @Test("a scene file that does not load leaves the scene in force and logs an error; a good one is installed")
    func reloadScene() throws {
        let (harness, _, _, watcher) = try setUp()
        let error = SceneError(file: "/etc/touchd/scene.json", line: 3, path: "size", message: "expected an array")
        harness.engine.reloadScene(
            .failure(error), path: "/etc/touchd/scene.json", reason: "SIGHUP", at: Fixtures.seconds(1))
        harness.pump()
        #expect(harness.engine.sceneVersion == 1)
        #expect(harness.engine.scene == Fixtures.scene())
        #expect(harness[watcher].take().isEmpty)
        let errors = harness.logs.filter { $0.severity == .error }.map(\.message)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("SIGHUP: scene not reloaded, the old one stays in force: ") == true)
        #expect(errors.first?.contains("expected an array") == true)

        let next = Fixtures.scene(#"{"size": [1024, 1024], "regions": []}"#)
        harness.engine.reloadScene(
            .success(next), path: "/etc/touchd/scene.json", reason: "the file changed", at: Fixtures.seconds(2))
        harness.pump()
        #expect(harness.engine.sceneVersion == 2)
        let notice = try #require(harness[watcher].take().first)
        #expect(notice.string("source") == "/etc/touchd/scene.json (the file changed)")
        #expect(notice["scene"]?["regions"]?.number == 0)
    }

    /// A new size moves where raw positions land: 2048 × 512 doubles x and halves y against 1024 × 1024.
    @Test("a scene of another size maps the devices to it, live fingers included")
    func resizeRemapsDevices() throws {
        let (harness, device, _, watcher) = try setUp()
        harness.engine.install(
            Fixtures.scene(#"{"size": [2048, 512], "regions": []}"#), source: "test", at: Fixtures.seconds(1))
        harness.pump()
        harness.feed(EventScript(start: Fixtures.seconds(2)).down(id: 1, x: 800, y: 1000), from: device)
        let down = try #require(harness[watcher].take().ofType("down").first)
        #expect((down.number("x"), down.number("y")) == (400, 125))
    }
}
