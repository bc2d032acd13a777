import Testing
import TouchCore
import TouchScene

/// The engine hands the dispatcher each finger event and frame end by itself (`handle(finger:)`,
/// `handle(frameEnd:)`); every other caller wraps them in a `PipelineOutput`. Both must dispatch the same events,
/// and those are checked against what the script makes, worked out by hand (the wrapper calls the direct entries
/// today, so their equality alone could not fail).
@Suite("Dispatcher entries")
struct DispatcherEntryTests {
    static let scene = """
        {"size": [1000, 1000], "regions": [
          {"id": "panel", "frame": [0, 0, 600, 600], "gestures": ["tap", "drag"], "children": [
            {"id": "knob", "frame": [100, 100, 50, 50], "draggable": true, "gestures": ["long-press"]}]}]}
        """

    /// Finger 1 drags the knob past the long press's slop, finger 2 presses and lifts on the panel meanwhile,
    /// finger 3 goes down on nothing, a timer runs between events; each frame closed.
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
        // What the script makes, worked out by hand (slop and drag distance 10): finger 1's first move, 5.1 from its
        // down, is within the slop; its second, 41.2, fails the knob's long press and begins the panel's drag (an
        // ancestor's recognizer sees the fingers of its descendants, as in UIKit), both at 20 ms. Finger 2 comes
        // down while that drag runs, so the panel has two fingers and no tap. The knob follows finger 1 from
        // (120, 120) to (200, 200): its frame ends 80 further on both axes.
        let moved = viaEntries.compactMap { event -> Rect? in
            if case .regionMoved(let region, let frame, _) = event, region.string == "knob" { frame } else { nil }
        }
        #expect(moved.last == Rect(x: 180, y: 180, width: 50, height: 50))
        let gestures = viaEntries.compactMap { event -> String? in
            guard case .gesture(let region, let gesture) = event else { return nil }
            return "\(region.string) \(gesture.name) \(gesture.event) \(gesture.time.microseconds / 1000)"
        }
        #expect(
            Array(gestures.prefix(3)) == [
                "knob long-press pressing 0", "knob long-press failed 20", "panel drag began 20",
            ])
        #expect(!gestures.contains { $0.contains(" tap ") })
        let regionsByFinger = Dictionary(
            grouping: viaEntries.compactMap { event -> (UInt32, String)? in
                if case .touch(let touch) = event { (touch.finger.rawValue, touch.region ?? "-") } else { nil }
            }, by: \.0
        ).mapValues { Set($0.map(\.1)) }
        #expect(regionsByFinger == [1: ["knob"], 2: ["panel"], 3: ["-"]])
    }
}
