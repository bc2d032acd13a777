import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchWire

/// The first line of every admitted connection (docs/protocol.md, "Connecting").
@Suite("Engine: the hello")
struct HelloTests {
    /// Root and a member of the scene group may change the scene; an ordinary user may only subscribe.
    @Test(
        "the hello names the protocol, the server, the devices, the scene and the peer's permissions",
        arguments: [(Fixtures.root, true), (Fixtures.sceneMember, true), (Fixtures.user, false)])
    func helloFields(peer: PeerCredentials, mayChangeScene: Bool) throws {
        var settings = Fixtures.settings()
        settings.serverName = "touchd-test"
        settings.version = "9.8.7"
        let harness = EngineHarness(settings: settings)
        _ = try harness.addDevice()
        let id = try harness.client(peer)
        let lines = harness[id].take()
        try #require(lines.count == 1)
        let hello = lines[0]
        #expect(hello.type == "hello")
        #expect(hello.number("protocol") == 1)
        #expect(hello.string("server") == "touchd-test 9.8.7")
        let devices = try #require(hello["devices"]?.array)
        #expect(devices.count == 1)
        #expect(devices.first?["device"]?.string == "event3")
        #expect(devices.first?["name"]?.string == "touchd test touchscreen")
        #expect(devices.first?["node"]?.string == "/dev/input/event3")
        #expect(devices.first?["slots"]?.number == 10)  // ABS_MT_SLOT 0...9
        #expect(devices.first?["protocol"]?.string == "slotted")
        // Scene summary: version 1 before any change; three regions counting the nested knob.
        let scene = try #require(hello["scene"])
        #expect(scene["version"]?.number == 1)
        #expect(scene["width"]?.number == 1024)
        #expect(scene["height"]?.number == 1024)
        #expect(scene["regions"]?.number == 3)
        #expect(hello["permissions"]?["subscribe"]?.bool == true)
        #expect(hello["permissions"]?["scene"]?.bool == mayChangeScene)
    }

    @Test("with no device the hello's device list is empty, and a device added later is in the next hello")
    func devicesFollowHotplug() throws {
        let harness = EngineHarness()
        let first = try harness.client()
        #expect(harness[first].take().first?["devices"]?.array?.isEmpty == true)
        _ = try harness.addDevice(Fixtures.touchscreen(key: "event9"))
        let second = try harness.client()
        let devices = try #require(harness[second].take().first?["devices"]?.array)
        #expect(devices.map { $0["device"]?.string } == ["event9"])
    }

    @Test("the connection is logged with pid, uid and whether the peer may change the scene")
    func connectionLogged() throws {
        let harness = EngineHarness()
        let root = try harness.client(Fixtures.root)
        let user = try harness.client(Fixtures.user)
        #expect(harness.logged("client \(root) connected: pid 100 uid 0 (may change the scene)").count == 1)
        #expect(harness.logged("client \(user) connected: pid 200 uid 1000").first?.hasSuffix("uid 1000") == true)
        #expect(harness.engine.clientCount == 2)
    }
}
