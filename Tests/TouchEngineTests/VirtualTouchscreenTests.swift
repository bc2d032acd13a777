import Testing
import TouchCore
import TouchEngine
import TouchScene
import TouchTestKit
import TouchWire

/// A device with a virtual touchscreen (`forwardUnclaimed`): the fingers no region claims leave the engine as
/// protocol B frames (`.emit`), worked out here by hand. The scene claims the left edge: raw x below 400 (scene
/// 100 of 1024, a quarter of the raw units); `watch` at the right edge forwards (raw x from 3600).
@Suite("Engine: the virtual touchscreen's frames")
struct VirtualTouchscreenTests {
    static let sceneJSON = """
        {"size": [1024, 1024], "regions": [
          {"id": "edge", "frame": [0, 0, 100, 1024]},
          {"id": "watch", "frame": [900, 0, 124, 1024], "forward": true}
        ]}
        """

    func setUp(forwarding: Bool = true, filter: JitterFilter = .off) throws -> (EngineHarness, DeviceHandle, ClientID) {
        let harness = EngineHarness(scene: Fixtures.scene(Self.sceneJSON))
        var spec = Fixtures.touchscreen()
        spec.filter = filter
        if forwarding { spec.virtualTouchscreen = VirtualTouchscreen.description(for: spec.description) }
        let device = try harness.addDevice(spec)
        let client = try harness.client()
        try harness.subscribe(client)
        return (harness, device, client)
    }

    /// Compact frames: "type:code:value" per event, one string per frame.
    func frames(_ harness: EngineHarness) -> [String] {
        harness.emitted.map { $0.frame.map { "\($0.type):\($0.code):\($0.value)" }.joined(separator: " ") }
    }

    // Codes, for reading the expected frames: ABS 3 (X 0, Y 1, MT_SLOT 47, POSITION_X 53, POSITION_Y 54,
    // TRACKING_ID 57, MT_PRESSURE 58), KEY 1 (BTN_TOUCH 330), SYN_REPORT 0:0:0.

    @Test("a finger outside the edge: down, move, up as protocol B frames with BTN_TOUCH, ABS_X/Y and raw positions")
    func unclaimedFinger() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.down(id: 77, x: 2000, y: 1000).move(x: 2100, y: 1000).up()
        harness.feed(script, from: device)
        #expect(
            frames(harness) == [
                "3:57:0 3:53:2000 3:54:1000 1:330:1 3:0:2000 3:1:1000 0:0:0",
                "3:53:2100 3:0:2100 0:0:0",
                "3:57:-1 1:330:0 0:0:0",
            ])
        #expect(harness.emitted.allSatisfy { $0.device == device })
        // The socket's clients still see it, with no region.
        let touches = harness[client].take().touches
        #expect(touches.map { $0.type ?? "" } == ["down", "move", "up"])
        #expect(touches.allSatisfy { $0.value["region"]?.isNull == true })
        #expect(harness.engine.virtualFingerCount(of: device) == 0)
    }

    @Test("a finger on the edge stays touchd's: nothing on the virtual touchscreen, the client sees region edge")
    func claimedFinger() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.down(id: 5, x: 100, y: 1000).move(x: 2000, y: 1000).up()
        harness.feed(script, from: device)
        #expect(harness.emitted.isEmpty)
        let touches = harness[client].take().touches
        #expect(touches.map { $0.string("region") ?? "-" } == ["edge", "edge", "edge"])
    }

    @Test("a finger on a region marked forward goes to both: the region's client and the virtual touchscreen")
    func forwardRegion() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.down(id: 9, x: 3800, y: 40).up()
        harness.feed(script, from: device)
        #expect(frames(harness) == ["3:57:0 3:53:3800 3:54:40 1:330:1 3:0:3800 3:1:40 0:0:0", "3:57:-1 1:330:0 0:0:0"])
        #expect(harness[client].take().touches.map { $0.string("region") ?? "-" } == ["watch", "watch"])
    }

    @Test("edge and outside fingers together: the outside ones get the virtual device's own slots and tracking ids")
    func mixedFingers() throws {
        let (harness, device, _) = try setUp()
        let script = EventScript()
        script.down(slot: 0, id: 100, x: 200, y: 200)  // edge: not forwarded
        script.down(slot: 1, id: 101, x: 1000, y: 2000)  // virtual slot 0, tracking id 0
        script.down(slot: 2, id: 102, x: 3000, y: 3000)  // virtual slot 1, tracking id 1
        script.move(slot: 2, x: 3010, y: 3000)  // not the oldest: ABS_X stays
        script.up(slot: 1)  // the oldest lifts: ABS_X/Y follow the other
        script.up(slot: 0)
        script.up(slot: 2)
        harness.feed(script, from: device)
        #expect(
            frames(harness) == [
                "3:57:0 3:53:1000 3:54:2000 1:330:1 3:0:1000 3:1:2000 0:0:0",
                "3:47:1 3:57:1 3:53:3000 3:54:3000 0:0:0",
                "3:53:3010 0:0:0",
                "3:47:0 3:57:-1 3:0:3010 3:1:3000 0:0:0",
                "3:47:1 3:57:-1 1:330:0 0:0:0",
            ])
    }

    @Test("pressure is forwarded as ABS_MT_PRESSURE, and only when it changes")
    func pressure() throws {
        let (harness, device, _) = try setUp()
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 2000, y: 2000).abs(AbsCode.mtPressure, 40).report()
        script.abs(AbsCode.mtPressure, 60).report()
        script.position(x: 2001, y: 2000).report()
        harness.feed(script, from: device)
        #expect(
            frames(harness) == [
                "3:57:0 3:53:2000 3:54:2000 3:58:40 1:330:1 3:0:2000 3:1:2000 0:0:0",
                "3:58:60 0:0:0",
                "3:53:2001 3:0:2001 0:0:0",
            ])
    }

    @Test("a move the jitter filter holds back for touchd's clients still reaches the virtual touchscreen, raw")
    func filteredMovesForwarded() throws {
        let (harness, device, client) = try setUp(filter: .standard)
        let script = EventScript()
        // The default filter (this panel declares no fuzz: a margin of mtdev's range / 250, 16.38 units) keeps a
        // 2-unit move still: clients get no move, the compositor gets the kernel's.
        script.down(id: 4, x: 2000, y: 2000).move(x: 2002, y: 2000).up()
        harness.feed(script, from: device)
        #expect(harness[client].take().touches.map { $0.type ?? "" } == ["down", "up"])
        #expect(
            frames(harness) == [
                "3:57:0 3:53:2000 3:54:2000 1:330:1 3:0:2000 3:1:2000 0:0:0",
                "3:53:2002 3:0:2002 0:0:0",
                "3:57:-1 1:330:0 0:0:0",
            ])
    }

    @Test("a palm cancelled by touchd is a palm on the virtual touchscreen, then lifted: a cancel for libinput")
    func palmLifts() throws {
        let (harness, device, _) = try setUp()
        let script = EventScript()
        script.down(id: 3, x: 2000, y: 2000)
        script.tool(ToolType.palm).report()
        harness.feed(script, from: device)
        #expect(
            frames(harness) == [
                "3:57:0 3:53:2000 3:54:2000 1:330:1 3:0:2000 3:1:2000 0:0:0", "3:55:2 0:0:0 3:57:-1 1:330:0 0:0:0",
            ])
    }

    @Test("unplugged mid-touch: every forwarded finger is lifted before the device goes")
    func removalLifts() throws {
        let (harness, device, _) = try setUp()
        let script = EventScript()
        script.down(slot: 0, id: 1, x: 2000, y: 2000).down(slot: 1, id: 2, x: 3000, y: 2000)
        harness.feed(script, from: device)
        harness.removeDevice(device)
        #expect(frames(harness).last == "3:47:0 3:57:-1 3:47:1 3:57:-1 1:330:0 0:0:0")
        #expect(harness.emitted.count == 3)
    }

    @Test("SYN_DROPPED: a finger gone in the device's state is lifted, one still down stays, none is stuck")
    func resyncLeavesNoneStuck() throws {
        let (harness, device, _) = try setUp()
        let script = EventScript()
        script.down(slot: 0, id: 1, x: 2000, y: 2000).down(slot: 1, id: 2, x: 3000, y: 2000)
        script.dropped()
        harness.feed(script, from: device)
        let before = harness.emitted.count
        // After the drop: slot 0 lifted, slot 1 still down where it was.
        let still = ContactState(x: 3000, y: 2000)
        harness.resync(
            device,
            to: DeviceSnapshot(slots: [SlotSnapshot(), SlotSnapshot(trackingID: 2, contact: still)], currentSlot: 1))
        #expect(Array(frames(harness)[before...]) == ["3:47:0 3:57:-1 3:0:3000 0:0:0"])
        #expect(harness.engine.virtualFingerCount(of: device) == 1)
        harness.resync(device, to: DeviceSnapshot(slots: [SlotSnapshot(), SlotSnapshot()], currentSlot: 1))
        #expect(frames(harness).last == "3:47:1 3:57:-1 1:330:0 0:0:0")
        #expect(harness.engine.virtualFingerCount(of: device) == 0)
    }

    @Test("shutdown lifts the forwarded fingers")
    func shutdownLifts() throws {
        let (harness, device, _) = try setUp()
        let script = EventScript()
        script.down(id: 1, x: 2000, y: 2000)
        harness.feed(script, from: device)
        harness.shutdown()
        #expect(frames(harness).last == "3:57:-1 1:330:0 0:0:0")
        #expect(harness.engine.virtualFingerCount(of: device) == 0)
    }

    @Test("decided at the down: a region that appears under a forwarded finger does not take it back")
    func decidedAtDown() throws {
        let (harness, device, _) = try setUp()
        let script = EventScript()
        script.down(id: 1, x: 2000, y: 2000)
        harness.feed(script, from: device)
        var scene = Fixtures.scene(Self.sceneJSON)
        scene.regions.append(Region(id: "late", frame: Rect(x: 0, y: 0, width: 1024, height: 1024)))
        harness.engine.install(scene, source: "test", at: harness.now)
        harness.pump()
        script.move(x: 2100, y: 2000).up()
        harness.feed(script, from: device)
        #expect(frames(harness).count == 3)
        #expect(frames(harness).last == "3:57:-1 1:330:0 0:0:0")
    }

    @Test("protocol A with 12 contacts: 10 virtual slots, the other 2 not forwarded and logged once")
    func protocolAOverflow() throws {
        let harness = EngineHarness(scene: Fixtures.scene(Self.sceneJSON))
        let real = TestDevices.contactReporter
        let spec = DeviceSpec(
            key: .named("event5"), node: "/dev/input/event5", description: real,
            virtualTouchscreen: VirtualTouchscreen.description(for: real))
        let device = try harness.addDevice(spec)
        let script = EventScript()
        // Twelve contacts in one frame, all on no region (the scene's middle: x 2400...6000 of 9600).
        for index in 0..<12 { script.position(x: 3000 + Int32(index) * 200, y: 3600).contactReport() }
        script.report()
        script.contactReport().report()  // all lift
        harness.feed(script, from: device)
        let frames = harness.emitted.map(\.frame)
        #expect(frames.count == 2)
        let ids = frames[0].filter { $0.code == AbsCode.mtTrackingID }.map(\.value)
        #expect(ids == Array(0...9))
        #expect(frames[1].filter { $0.code == AbsCode.mtTrackingID }.map(\.value) == Array(repeating: -1, count: 10))
        #expect(harness.logged("no free slot on the virtual touchscreen").count == 1)
        #expect(harness.engine.virtualFingerCount(of: device) == 0)
    }

    @Test("without the option, nothing is emitted")
    func offByDefault() throws {
        let (harness, device, _) = try setUp(forwarding: false)
        let script = EventScript()
        script.down(id: 1, x: 2000, y: 2000).up()
        harness.feed(script, from: device)
        #expect(harness.emitted.isEmpty)
    }
}
