import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchScene
import TouchTestKit
import TouchWire

/// docs/kiosk.md's recipes (b) and (c) with their files from config/kiosk as shipped, on a panel of the scenes' size
/// (0...1535 × 0...2559, a raw unit a scene unit): what the browser gets through the virtual touchscreen, and what
/// touchd's clients (touchd-actions) get. A click needs a lift: a finger the browser sees end in a cancel
/// (`MT_TOOL_PALM`, then lifted) clicks nothing.
@Suite("Engine: the kiosk recipes of docs/kiosk.md, with their files")
struct KioskRecipeTests {
    static let panel: DeviceDescription = {
        var description = TestDevices.touchscreen
        for code in [AbsCode.x, AbsCode.mtPositionX] { description.absInfo[code] = AbsInfo(minimum: 0, maximum: 1535) }
        for code in [AbsCode.y, AbsCode.mtPositionY] { description.absInfo[code] = AbsInfo(minimum: 0, maximum: 2559) }
        return description
    }()

    static func file(_ name: String) throws -> String {
        try String(contentsOfFile: SharedRecordings.repositoryRoot + "/config/kiosk/" + name, encoding: .utf8)
    }

    func setUp(scene: String) throws -> (EngineHarness, DeviceHandle, ClientID) {
        let harness = EngineHarness(scene: try SceneLoader.parse(try Self.file(scene), file: scene))
        var spec = DeviceSpec(key: .named("event3"), node: "/dev/input/event3", description: Self.panel)
        // Positions as the kernel's, so that the distances below are the scene's exactly.
        spec.filter = .off
        spec.virtualTouchscreen = VirtualTouchscreen.description(for: Self.panel)
        let device = try harness.addDevice(spec)
        let client = try harness.client()
        try harness.subscribe(client)
        return (harness, device, client)
    }

    /// Per forwarded finger (by tracking id on the virtual touchscreen), how it ended: "palm" when its slot turned
    /// MT_TOOL_PALM before its tracking id -1, "lift" when it was lifted as a finger, "down" while still down.
    static func endings(_ frames: [[InputEvent]]) -> [String] {
        var slot: Int32 = 0
        var palm: Set<Int32> = []
        var down: [Int32: Int] = [:]
        var endings: [String] = []
        for event in frames.joined() where event.type == EventType.abs {
            switch event.code {
            case AbsCode.mtSlot: slot = event.value
            case AbsCode.mtToolType: if event.value == ToolType.palm { palm.insert(slot) } else { palm.remove(slot) }
            case AbsCode.mtTrackingID where event.value >= 0:
                down[slot] = endings.count
                endings.append("down")
            case AbsCode.mtTrackingID:
                if let index = down.removeValue(forKey: slot) { endings[index] = palm.contains(slot) ? "palm" : "lift" }
                palm.remove(slot)
            default: break
            }
        }
        return endings
    }

    // (b) config/kiosk/top-menu.json: a 48-unit strip along the top, forwarding, with a drag "pull" of minimum
    // distance 24 that takes its finger when recognized.

    @Test("(b) a tap in the top strip reaches the browser whole: forwarded down and lifted, no drag")
    func topStripTap() throws {
        let (harness, device, client) = try setUp(scene: "top-menu.json")
        harness.feed(EventScript().down(id: 1, x: 700, y: 20).up(), from: device)
        #expect(Self.endings(harness.emitted.map(\.frame)) == ["lift"])
        let lines = harness[client].take()
        #expect(lines.ofType("down").first?.string("region") == "top-edge")
        #expect(lines.ofType("gesture").filter { $0.string("state") == "began" }.isEmpty)
    }

    @Test("(b) a drag down from the strip: forwarded, then cancelled for the browser at the move where it passes 24")
    func topStripDrag() throws {
        let (harness, device, client) = try setUp(scene: "top-menu.json")
        harness.feed(EventScript().down(id: 1, x: 700, y: 20), from: device)
        #expect(Self.endings(harness.emitted.map(\.frame)) == ["down"])
        // 5 units a move: 5, 10, 15, 20 from the down are short of 24; the fifth move, 25, is the drag.
        let script = EventScript(start: harness.now + .milliseconds(10))
        for step in 1...4 { script.move(x: 700, y: 20 + 5 * Int32(step)) }
        harness.feed(script, from: device)
        #expect(Self.endings(harness.emitted.map(\.frame)) == ["down"])
        #expect(harness[client].take().ofType("gesture").filter { $0.string("state") == "began" }.isEmpty)

        harness.feed(EventScript(start: harness.now + .milliseconds(10)).move(x: 700, y: 45), from: device)
        #expect(Self.endings(harness.emitted.map(\.frame)) == ["palm"])
        let began = harness[client].take().ofType("gesture").filter { $0.string("state") == "began" }
        #expect(began.count == 1)
        #expect(began.first?.string("region") == "top-edge")
        #expect(began.first?.string("kind") == "drag")
        #expect(began.first?.string("gesture") == "pull")

        // The rest of the drag and its lift are touchd's: the browser gets no more frames.
        let emitted = harness.emitted.count
        harness.feed(EventScript(start: harness.now + .milliseconds(10)).move(x: 700, y: 300).up(), from: device)
        #expect(harness.emitted.count == emitted)
        #expect(harness[client].take().ofType("up").count == 1)
    }

    // (c) config/kiosk/admin-actions.json's region, added over config/kiosk/browser.json as touchd-actions adds it
    // (`add-region`, transient): a five-finger long press of 3 s, allowable movement 40, taken when all five are down.

    func addAdminRegion(_ harness: EngineHarness) throws {
        let actions = try JSONParser.parse(try Self.file("admin-actions.json"))
        guard case .array(let regions, _)? = actions["regions"], let region = regions.first else {
            Issue.record("admin-actions.json has no region")
            return
        }
        let owner = try harness.client(Fixtures.sceneMember)
        let reply = harness.request(
            #"{"op":"add-region","id":1,"transient":true,"region":\#(String(decoding: region.compactJSON, as: UTF8.self))}"#,
            from: owner)
        #expect(reply.last?.bool("ok") == true)
    }

    @Test("(c) five fingers held 3 s: the browser sees four downs cancelled as the fifth lands, never the fifth")
    func adminLongPress() throws {
        let (harness, device, client) = try setUp(scene: "browser.json")
        try addAdminRegion(harness)
        // Five fingers in five frames, across the screen, over whatever the browser shows there.
        let script = EventScript()
        for finger in 0..<4 {
            script.down(slot: Int32(finger), id: Int32(finger + 1), x: 200 + 280 * Int32(finger), y: 1300)
        }
        harness.feed(script, from: device)
        #expect(Self.endings(harness.emitted.map(\.frame)) == ["down", "down", "down", "down"])
        harness.feed(
            EventScript(start: harness.now + .milliseconds(10)).down(slot: 4, id: 5, x: 1320, y: 1300), from: device)
        #expect(Self.endings(harness.emitted.map(\.frame)) == ["palm", "palm", "palm", "palm"])
        #expect(harness.engine.virtualFingerCount(of: device) == 0)
        let emitted = harness.emitted.count
        let downs = harness[client].take()
        #expect(downs.ofType("down").count == 5)
        #expect(downs.ofType("down").allSatisfy { $0.string("region") == "admin" })

        // Held (moving 2 units now and then, within 40) past 3 s: the long press begins, for touchd's clients only.
        let hold = EventScript(start: harness.now + .milliseconds(100), frameInterval: .milliseconds(500))
        for step in 0..<7 { hold.move(slot: Int32(step % 5), x: 200 + 280 * Int32(step % 5), y: 1302) }
        harness.feed(hold, from: device)
        harness.runTimers(until: harness.now + .milliseconds(100))
        let began = harness[client].take().ofType("gesture").filter { $0.string("state") == "began" }
        #expect(began.count == 1)
        #expect(began.first?.string("region") == "admin")
        #expect(began.first?.string("kind") == "long-press")
        #expect(began.first?.string("gesture") == "admin")

        // The lifts are touchd's too: nothing under the fingers is clicked.
        let lift = EventScript(start: harness.now + .milliseconds(10))
        for finger in 0..<5 { lift.up(slot: Int32(finger)) }
        harness.feed(lift, from: device)
        #expect(harness.emitted.count == emitted)
        #expect(!Self.endings(harness.emitted.map(\.frame)).contains("lift"))
    }

    @Test("(c) one finger, a tap and a scroll on the admin region still reach the browser whole")
    func adminRegionForwards() throws {
        let (harness, device, client) = try setUp(scene: "browser.json")
        try addAdminRegion(harness)
        let script = EventScript().down(id: 1, x: 600, y: 1000).up()
        script.down(id: 2, x: 600, y: 1000)
        for step in 1...20 { script.move(x: 600, y: 1000 - 20 * Int32(step)) }
        script.up()
        harness.feed(script, from: device)
        #expect(Self.endings(harness.emitted.map(\.frame)) == ["lift", "lift"])
        #expect(harness[client].take().ofType("down").allSatisfy { $0.string("region") == "admin" })
    }
}
