import Testing
import TouchCore
import TouchEngine
import TouchTestKit
import TouchWire

/// A device with the jitter filter, through the whole engine to a subscriber: clients and the dispatcher see the
/// filtered position, `raw_x`/`raw_y` stay the kernel's. With a fuzz of 16 (as if the panel declared it): libinput's
/// hysteresis, a margin of 8 device units (2 scene units: the scene is a quarter).
@Suite("Engine: a device through the jitter filter")
struct FilteredDeviceTests {
    func setUp(filter: JitterFilter = .fuzz(override: 16)) throws -> (EngineHarness, DeviceHandle, ClientID) {
        let harness = EngineHarness()
        let device = try harness.addDevice(Fixtures.touchscreen(filter: filter))
        let client = try harness.client()
        try harness.subscribe(client)
        return (harness, device, client)
    }

    @Test("a finger held on the button with jitter inside the margin: down and up only, the up where the down was")
    func stillFinger() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.down(id: 1, x: 800, y: 1000)
        script.position(x: 805, y: 996).report()  // (5/8)² + (4/8)² = 0.64: inside
        script.position(x: 795, y: 1004).report()
        script.position(x: 808, y: 1000).report()  // on the edge: still inside
        script.up()
        harness.feed(script, from: device)
        let touches = harness[client].take().touches
        #expect(touches.map { $0.type ?? "" } == ["down", "up"])
        #expect(touches.allSatisfy { $0.string("region") == "button" })
        let up = touches[1]
        #expect((up.number("x"), up.number("y")) == (200, 250))
        #expect((up.number("raw_x"), up.number("raw_y")) == (808, 1000))
        #expect(harness.engine.diagnostics(of: device)?.movesSuppressedByFilter == 3)
    }

    @Test("a drag: each move 8 device units behind the kernel's position, raw_x the kernel's")
    func drag() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.down(id: 1, x: 800, y: 1000).move(x: 900, y: 1000).move(x: 1000, y: 1000).up()
        harness.feed(script, from: device)
        let touches = harness[client].take().touches
        #expect(touches.map { $0.type ?? "" } == ["down", "move", "move", "up"])
        // 900 is 100 from 800: the position goes to 892 (scene 223); 1000 is 108 past it: 992 (scene 248).
        #expect(touches[1].number("x") == 223 && touches[1].number("raw_x") == 900)
        #expect(touches[1].number("dx") == 23)
        #expect(touches[2].number("x") == 248 && touches[2].number("raw_x") == 1000)
        #expect(touches[3].number("x") == 248 && touches[3].number("raw_x") == 1000)
    }

    /// The default filter on the test touchscreen, which declares no fuzz: margins of 4095 / 250 = 16.38, released
    /// on motion. Steps of 100 are motion: each move is where the kernel put it (scene 225, then 250).
    @Test("the default on a panel without fuzz: a drag's moves are the kernel's positions, no lag")
    func dragWithoutDeclaredFuzz() throws {
        let (harness, device, client) = try setUp(filter: .standard)
        let script = EventScript()
        script.down(id: 1, x: 800, y: 1000).move(x: 900, y: 1000).move(x: 1000, y: 1000).up()
        harness.feed(script, from: device)
        let touches = harness[client].take().touches
        #expect(touches.map { $0.type ?? "" } == ["down", "move", "move", "up"])
        #expect(touches[1].number("x") == 225 && touches[1].number("raw_x") == 900)
        #expect(touches[2].number("x") == 250 && touches[3].number("x") == 250)
    }
}
