import Testing
import TouchCore
import TouchEngine
import TouchTestKit
import TouchWire

/// Scripted touches through the whole engine (decoder, mapping, dispatcher, fan-out) to a subscriber's socket.
/// Positions are worked out by hand: the scene is a quarter of the panel's raw units (Fixtures).
@Suite("Engine: touch events from a device")
struct TouchEventTests {
    /// One device, one subscriber to everything; the subscriber's lines start empty.
    func setUp() throws -> (EngineHarness, DeviceHandle, ClientID) {
        let harness = EngineHarness()
        let device = try harness.addDevice()
        let client = try harness.client()
        try harness.subscribe(client)
        return (harness, device, client)
    }

    @Test("a tap on the button: down and up with its region, scene and local coordinates, each followed by a frame")
    func tapOnRegion() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.down(id: 10, x: 800, y: 1000).up()
        harness.feed(script, from: device)
        let lines = harness[client].take()
        #expect(lines.types == ["down", "frame", "up", "frame"])
        let down = lines[0]
        #expect(down.string("device") == "event3")
        #expect(down.number("finger") == 1)  // device index 0: fingers count from 1
        #expect(down.number("slot") == 0)
        #expect(down.number("time_us") == 1_000_000)
        #expect(down.string("region") == "button")
        // Raw 800/1000 is scene 200/250; the button's frame starts at 100/200.
        #expect((down.number("x"), down.number("y")) == (200, 250))
        #expect((down.number("local_x"), down.number("local_y")) == (100, 50))
        #expect((down.number("raw_x"), down.number("raw_y")) == (800, 1000))
        #expect(down.number("taps") == 1)
        let up = lines[2]
        #expect(up.string("region") == "button")
        #expect(up.number("time_us") == 1_010_000)
        #expect(up.number("since_down_us") == 10_000)
        #expect(lines[1].string("device") == "event3" && lines[1].number("time_us") == 1_000_000)
    }

    @Test("a finger that slides off its region stays captured by it: region and local coordinates are the button's")
    func captureKeepsRegion() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        // Down on the button, then over the knob (scene 600/600), then lift there.
        script.down(id: 1, x: 800, y: 1000).move(x: 2400, y: 2400).up()
        harness.feed(script, from: device)
        let touches = harness[client].take().touches
        #expect(touches.map { $0.type ?? "" } == ["down", "move", "up"])
        #expect(touches.allSatisfy { $0.string("region") == "button" })
        let move = touches[1]
        #expect((move.number("x"), move.number("y")) == (600, 600))
        #expect((move.number("local_x"), move.number("local_y")) == (500, 400))
        #expect((move.number("prev_x"), move.number("prev_y")) == (200, 250))
        #expect((move.number("dx"), move.number("dy")) == (400, 350))
        #expect(move.number("since_down_us") == 10_000)
    }

    @Test("a down on the nested knob is the knob's, local to the knob; a down on nothing has region null")
    func nestedAndUnassigned() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        // Two fingers at once: the knob (scene 600/600, the knob's frame starts at 550/550) and an empty corner.
        script.slot(0).trackingID(1).position(x: 2400, y: 2400)
        script.slot(1).trackingID(2).position(x: 40, y: 40).report()
        harness.feed(script, from: device)
        let downs = harness[client].take().ofType("down")
        try #require(downs.count == 2)
        #expect(downs[0].string("region") == "knob")
        #expect((downs[0].number("local_x"), downs[0].number("local_y")) == (50, 50))
        #expect(downs[1]["region"]?.isNull == true)
        #expect(downs[1].number("slot") == 1)
        // Unassigned: local coordinates are scene coordinates.
        #expect((downs[1].number("local_x"), downs[1].number("local_y")) == (10, 10))
    }

    @Test("removing the device cancels each live finger exactly once, then says device-removed")
    func removalCancelsOnce() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 800, y: 1000)
        script.slot(1).trackingID(2).position(x: 2400, y: 2400).report()
        harness.feed(script, from: device)
        _ = harness[client].take()
        harness.setClock(Fixtures.seconds(2))
        harness.removeDevice(device)
        let lines = harness[client].take()
        #expect(lines.types == ["cancel", "cancel", "frame", "device-removed"])
        #expect(lines.ofType("cancel").map { $0.number("finger") } == [1, 2])
        #expect(lines.ofType("cancel").map { $0.string("region") } == ["button", "knob"])
        #expect(lines.ofType("cancel").allSatisfy { $0.number("time_us") == 2_000_000 })
        #expect(lines.last?.string("device") == "event3")
        #expect(harness.logged("/dev/input/event3: unplugged; its touches were cancelled").count == 1)
        #expect(harness.engine.deviceCount == 0)
        // Gone: removing it again, or its late events, change nothing.
        harness.removeDevice(device)
        harness.feed(EventScript(start: Fixtures.seconds(3)).up().events, from: device)
        #expect(harness[client].take().isEmpty)
    }

    @Test("the end of a stream cancels fingers still down; the device stays, and a second end has nothing to cancel")
    func endOfStreamCancels() throws {
        let (harness, device, client) = try setUp()
        harness.feed(EventScript().down(id: 1, x: 800, y: 1000), from: device)
        _ = harness[client].take()
        harness.endOfStream(device)
        let lines = harness[client].take()
        #expect(lines.types == ["cancel", "frame"])
        #expect(lines.first?.string("region") == "button")
        #expect(harness.engine.deviceCount == 1)
        harness.endOfStream(device)
        #expect(harness[client].take().isEmpty)
    }

    /// SYN_DROPPED, then the device's state read back: the finger's slot is empty, so it vanished unseen.
    @Test("a resync that finds the finger gone cancels it and logs a warning")
    func resyncCancelsVanishedFinger() throws {
        let (harness, device, client) = try setUp()
        harness.feed(EventScript().down(id: 1, x: 800, y: 1000), from: device)
        _ = harness[client].take()
        harness.resync(device, to: DeviceSnapshot(slots: Array(repeating: SlotSnapshot(), count: 10)))
        #expect(harness[client].take().types == ["cancel", "frame"])
        let warnings = harness.logs.filter { $0.severity == .warning }.map(\.message)
        #expect(
            warnings == [
                "event3: events dropped by the kernel (SYN_DROPPED); resynchronised from the device state"
            ])
    }

    @Test("a resync that finds the finger where it was sends nothing to clients, and still logs the warning")
    func resyncWithNothingLost() throws {
        let (harness, device, client) = try setUp()
        harness.feed(EventScript().down(id: 1, x: 800, y: 1000), from: device)
        _ = harness[client].take()
        var slots = Array(repeating: SlotSnapshot(), count: 10)
        slots[0] = SlotSnapshot(trackingID: 1, contact: ContactState(x: 800, y: 1000))
        harness.resync(device, to: DeviceSnapshot(slots: slots))
        #expect(harness[client].take().isEmpty)
        #expect(harness.logged("SYN_DROPPED").count == 1)
    }
}
