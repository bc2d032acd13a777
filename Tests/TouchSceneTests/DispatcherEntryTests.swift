import Testing
import TouchCore
import TouchScene

/// The engine hands the dispatcher each finger event and frame end by itself (`handle(finger:)`,
/// `handle(frameEnd:)`); every other caller wraps them in a `PipelineOutput`. Both must dispatch the same events.
@Suite("Dispatcher entries")
struct DispatcherEntryTests {
    static let scene = """
        {"size": [1000, 1000], "regions": [
          {"id": "panel", "frame": [0, 0, 600, 600], "gestures": ["tap", "drag"], "children": [
            {"id": "knob", "frame": [100, 100, 50, 50], "draggable": true, "gestures": ["long-press"]}]}]}
        """

    /// Finger 1 drags the knob past the long press's slop, finger 2 taps the panel, finger 3 goes down on nothing,
    /// a timer runs between events; each frame closed.
    static let script: [(TouchPhase, UInt32, Double, Double, Int64)] = [
        (.down, 1, 120, 120, 0), (.move, 1, 125, 121, 10), (.move, 1, 160, 130, 20), (.down, 2, 400, 400, 30),
        (.up, 2, 401, 400, 80), (.down, 3, 900, 900, 700), (.move, 1, 200, 200, 710), (.up, 1, 200, 200, 720),
        (.cancel, 3, 900, 900, 730),
    ]

    @Test("handle(finger:) and handle(frameEnd:) dispatch what handle(.finger) and handle(.frameEnd) do")
    func sameEvents() throws {
        let device = DeviceTag(index: 3, name: "panel0")
        let wrapped = Dispatcher(scene: try SceneLoader.parse(Self.scene, file: "test.json"))
        let direct = Dispatcher(scene: try SceneLoader.parse(Self.scene, file: "test.json"))
        var viaOutput: [DispatchEvent] = []
        var viaEntries: [DispatchEvent] = []
        for (phase, finger, x, y, ms) in Self.script {
            let time = EventTime(microseconds: ms * 1000)
            let mapped = MappedFingerEvent(
                event: FingerEvent(
                    phase: phase, finger: FingerID(finger), slot: Int32(finger), time: time,
                    contact: ContactState(x: Int32(x), y: Int32(y))),
                position: Point(x: x, y: y))
            wrapped.handle(.finger(mapped), device: device, into: &viaOutput)
            wrapped.handle(.frameEnd(time), device: device, into: &viaOutput)
            direct.handle(finger: mapped, device: device, into: &viaEntries)
            direct.handle(frameEnd: time, device: device, into: &viaEntries)
            #expect(wrapped.nextDeadline == direct.nextDeadline)
        }
        #expect(viaEntries == viaOutput)
        // The script reaches what it is for: a region moved, gestures reported, a touch on no region.
        #expect(viaOutput.contains { if case .regionMoved = $0 { true } else { false } })
        #expect(viaOutput.contains { if case .gesture = $0 { true } else { false } })
        #expect(viaOutput.contains { if case .touch(let t) = $0 { t.region == nil } else { false } })
    }
}
