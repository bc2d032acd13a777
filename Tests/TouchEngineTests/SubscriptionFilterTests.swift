import Testing
import TouchCore
import TouchEngine
import TouchTestKit
import TouchWire

/// What each subscriber receives, by its filter (docs/protocol.md, `subscribe`): the same touches go to five
/// clients with different filters, and each gets exactly its share.
@Suite("Engine: subscriptions and filters")
struct SubscriptionFilterTests {
    /// Three fingers at once: one on the button (finger 1), one on the knob (2), one on nothing (3); then all lift.
    func threeFingers(_ harness: EngineHarness, _ device: DeviceHandle) {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 800, y: 1000)
        script.slot(1).trackingID(2).position(x: 2400, y: 2400)
        script.slot(2).trackingID(3).position(x: 40, y: 40).report()
        script.slot(0).trackingID(-1).slot(1).trackingID(-1).slot(2).trackingID(-1).report()
        harness.feed(script, from: device)
    }

    /// (finger, type) of each touch line, for comparing shares.
    func touches(_ lines: [WireLine]) -> [String] {
        lines.touches.map { "\($0.type!) \(Int($0.number("finger") ?? -1))" }
    }

    @Test("kinds, regions, unassigned and devices filters each admit exactly their events")
    func filters() throws {
        let harness = EngineHarness()
        let device = try harness.addDevice()
        let everything = try harness.client()
        try harness.subscribe(everything)
        let framesOnly = try harness.client()
        try harness.subscribe(framesOnly, #""events":["frame"]"#)
        let button = try harness.client()
        try harness.subscribe(button, #""regions":["button"]"#)
        let buttonAndNothing = try harness.client()
        try harness.subscribe(buttonAndNothing, #""regions":["button"],"unassigned":true"#)
        let otherDevice = try harness.client()
        try harness.subscribe(otherDevice, #""events":["touch","frame"],"devices":["event7"]"#)
        let thisDevice = try harness.client()
        try harness.subscribe(thisDevice, #""events":["touch"],"devices":["event3"]"#)
        threeFingers(harness, device)

        #expect(touches(harness[everything].take()) == ["down 1", "down 2", "down 3", "up 1", "up 2", "up 3"])
        #expect(harness[framesOnly].take().types == ["frame", "frame"])
        // A regions filter does not apply to frames (they are about no region).
        #expect(harness[button].take().types == ["down", "frame", "up", "frame"])
        #expect(touches(harness[buttonAndNothing].take()) == ["down 1", "down 3", "up 1", "up 3"])
        #expect(harness[otherDevice].take().isEmpty)
        #expect(touches(harness[thisDevice].take()).count == 6)
    }

    @Test("a devices filter also picks the device notices: event7's subscriber hears nothing of event3")
    func deviceNoticesFiltered() throws {
        let harness = EngineHarness()
        let all = try harness.client()
        try harness.subscribe(all, #""events":["device"]"#)
        let other = try harness.client()
        try harness.subscribe(other, #""events":["device"],"devices":["event7"]"#)
        let same = try harness.client()
        try harness.subscribe(same, #""events":["device"],"devices":["event3"]"#)
        let device = try harness.addDevice(Fixtures.touchscreen(key: "event3"))
        harness.removeDevice(device)
        #expect(harness[all].take().types == ["device-added", "device-removed"])
        #expect(harness[other].take().isEmpty)
        #expect(harness[same].take().types == ["device-added", "device-removed"])
    }

    @Test("after unsubscribe no event arrives; subscribing again brings them back")
    func unsubscribeStops() throws {
        let harness = EngineHarness()
        let device = try harness.addDevice()
        let client = try harness.client()
        try harness.subscribe(client, #""events":["touch"]"#)
        harness.feed(EventScript(start: Fixtures.seconds(1)).down(id: 1, x: 800, y: 1000).up(), from: device)
        #expect(harness[client].take().types == ["down", "up"])
        #expect(harness.request(#"{"op":"unsubscribe","id":1}"#, from: client).map(\.type) == ["reply"])
        harness.feed(EventScript(start: Fixtures.seconds(2)).down(id: 2, x: 800, y: 1000).up(), from: device)
        #expect(harness[client].take().isEmpty)
        try harness.subscribe(client, #""events":["touch"]"#)
        harness.feed(EventScript(start: Fixtures.seconds(3)).down(id: 3, x: 800, y: 1000).up(), from: device)
        #expect(harness[client].take().types == ["down", "up"])
    }

    @Test("a second subscribe replaces the first filter instead of adding a second copy of each event")
    func resubscribeReplaces() throws {
        let harness = EngineHarness()
        let device = try harness.addDevice()
        let client = try harness.client()
        try harness.subscribe(client, #""events":["frame"]"#)
        try harness.subscribe(client, #""events":["touch"]"#)
        #expect(harness.engine.subscriberCount == 1)
        harness.feed(EventScript().down(id: 1, x: 800, y: 1000).up(), from: device)
        #expect(harness[client].take().types == ["down", "up"])
    }

    @Test("device-added and device-removed go to subscribers of device notices only")
    func deviceNotices() throws {
        let harness = EngineHarness()
        let devices = try harness.client()
        try harness.subscribe(devices, #""events":["device"]"#)
        let touchOnly = try harness.client()
        try harness.subscribe(touchOnly, #""events":["touch","scene"]"#)
        let notSubscribed = try harness.client()
        _ = harness[notSubscribed].take()
        let handle = try harness.addDevice(Fixtures.touchscreen(key: "event5"))
        let added = harness[devices].take()
        #expect(added.types == ["device-added"])
        #expect(added.first?["device"]?["device"]?.string == "event5")
        #expect(added.first?["device"]?["node"]?.string == "/dev/input/event5")
        #expect(added.first?["device"]?["slots"]?.number == 10)
        harness.removeDevice(handle)
        #expect(harness[devices].take().map(\.text) == [#"{"type":"device-removed","device":"event5"}"#])
        #expect(harness[touchOnly].take().isEmpty)
        #expect(harness[notSubscribed].take().isEmpty)
    }

    @Test("scene-changed goes to subscribers of scene notices only")
    func sceneNotices() throws {
        let harness = EngineHarness()
        let scene = try harness.client()
        try harness.subscribe(scene, #""events":["scene"]"#)
        let devices = try harness.client()
        try harness.subscribe(devices, #""events":["device","touch"]"#)
        let root = try harness.client(Fixtures.root)
        _ = harness[root].take()
        let answer = harness.request(#"{"op":"remove-region","id":1,"region":"knob"}"#, from: root)
        let notices = harness[scene].take()
        #expect(notices.types == ["scene-changed"])
        #expect(notices.first?.string("source") == "client \(root)")
        #expect(notices.first?["scene"]?["version"]?.number == 2)
        #expect(notices.first?["scene"]?["regions"]?.number == 2)
        #expect(harness[devices].take().isEmpty)
        // The one who asked is not subscribed: its reply only.
        #expect(answer.types == ["reply"])
    }
}
