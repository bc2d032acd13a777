import Testing
import TouchCore
import TouchEngine
import TouchTestKit

/// A device placed again while a finger is down (`"output": "auto"` after a monitor hotplug): the finger goes on,
/// its next positions in the new rectangle. The test touchscreen is 0...4095 on both axes, the scene 1024x1024.
@Suite("Engine: a device's mapping replaced")
struct RemapTests {
    @Test("a live finger moves on in the new rectangle; the rectangle stays when the scene is resized")
    func remapLiveFinger() throws {
        let harness = EngineHarness()
        let device = try harness.addDevice()
        let watcher = try harness.client()
        try harness.subscribe(watcher, #""events":["touch"]"#)
        _ = harness[watcher].take()
        let script = EventScript()
        script.down(id: 1, x: 2048, y: 2048)
        harness.feed(script.events, from: device)
        let down = try #require(harness[watcher].take().first)
        #expect(down.number("x") == 512 && down.number("y") == 512)

        var settings = CoordinateMapping.Settings()
        settings.region = MappingRegion(x: 512, y: 0, width: 512, height: 512)
        #expect(harness.engine.remap(device, settings: settings))
        let moved = EventScript(start: script.time)
        moved.move(x: 2048, y: 1024)
        harness.feed(moved.events, from: device)
        let move = try #require(harness[watcher].take().first)
        // 512 + 2048/4096 * 512, 0 + 1024/4096 * 512; the same finger, still down.
        #expect(move.string("type") == "move" && move.number("finger") == down.number("finger"))
        #expect(move.number("x") == 768 && move.number("y") == 128)

        harness.engine.reloadScene(
            .success(Fixtures.scene(#"{"size": [640, 480], "regions": []}"#)), path: "s.json", reason: "test",
            at: script.time)
        let after = try #require(harness.engine.mapping(of: device))
        #expect(after.map(x: 0, y: 0) == Point(x: 512, y: 0))
        #expect(!harness.engine.remap(DeviceHandle(99), settings: settings))
    }
}
