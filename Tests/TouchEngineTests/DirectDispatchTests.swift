import Testing
import TouchCore
import TouchEngine
import TouchTestKit
import TouchWire

/// With no output and no virtual touchscreen, a device's pipeline hands each finger event straight to the
/// dispatcher; with an output (`EngineObserver`), the engine collects each step's outputs for it too. Subscribers
/// must not see the difference.
@Suite("Engine: finger events dispatched as decoded")
struct DirectDispatchTests {
    /// Taps, a double tap, a long press, a drag with jitter, two fingers at once, and a finger lifted at the end
    /// of the stream: everything the gesture scene's recognizers and timers react to.
    static var events: [InputEvent] {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 3000, y: 400).report()
        script.slot(0).trackingID(-1).report()
        script.time = script.time + .milliseconds(100)
        script.slot(0).trackingID(2).position(x: 3004, y: 398).report()
        script.slot(0).trackingID(-1).report()
        script.time = script.time + .milliseconds(600)
        script.slot(0).trackingID(3).position(x: 400, y: 400).report()
        script.time = script.time + .milliseconds(700)
        for step in 1...12 as ClosedRange<Int32> {
            script.slot(0).position(x: 400 + step * 37, y: 400 + (step % 3)).slot(1)
            if step == 3 { script.trackingID(4) }
            script.position(x: 2000 - step, y: 2000 + step * 50).report()
        }
        script.slot(0).trackingID(-1).report()
        script.slot(1).position(x: 3500, y: 3500).report()
        return script.events
    }

    func run(observed: Bool) throws -> [String] {
        let harness = EngineHarness(scene: Fixtures.scene(Fixtures.gestureSceneJSON))
        if observed { harness.engine.output = EngineObserver { _ in } }
        return try Self.play(harness)
    }

    /// Plays `events` on a filtered touchscreen to one subscriber of touches, gestures and frames, to the end of the
    /// stream and past every timer: that subscriber's lines.
    static func play(_ harness: EngineHarness) throws -> [String] {
        let device = try harness.addDevice(Fixtures.touchscreen(filter: .standard))
        let client = try harness.client()
        try harness.subscribe(client, #""events":["touch","gesture","frame"]"#)
        harness.feed(events, from: device)
        harness.endOfStream(device)
        harness.advance(to: EventTime(microseconds: 60_000_000))
        return harness[client].take().map(\.text)
    }

    @Test("subscribers get the same lines whether the pipeline's outputs are collected or handed on")
    func sameLines() throws {
        let direct = try run(observed: false)
        let collected = try run(observed: true)
        #expect(direct == collected)
        #expect(direct.count > 40)
        #expect(direct.contains { $0.contains(#""long-press""#) })
        #expect(direct.contains { $0.contains(#""double-tap""#) })
    }
}
