import Testing
import TouchCore
import TouchEngine
import TouchTestKit
import TouchWire

/// Gestures that wait for time to pass fire on virtual time alone: when `advance(to:)` reaches the deadline the
/// engine announced in `nextDeadline`, never a microsecond before (docs/scene.md: long press 500 ms, double tap
/// window 300 ms).
@Suite("Engine: gestures waiting on timers")
struct GestureTimerTests {
    func setUp() throws -> (EngineHarness, DeviceHandle, ClientID) {
        let harness = EngineHarness(scene: Fixtures.scene(Fixtures.gestureSceneJSON))
        let device = try harness.addDevice()
        let client = try harness.client()
        try harness.subscribe(client, #""events":["touch","gesture"]"#)
        return (harness, device, client)
    }

    func gestures(_ lines: [WireLine]) -> [String] {
        lines.ofType("gesture").map { "\($0.string("gesture")!) \($0.string("state")!)" }
    }

    /// The finger goes down at 1.000 s on `hold` (raw 400/400: scene 100/100); 500 ms later the press begins.
    @Test("a long press begins exactly at down + 500 ms, when advance reaches the deadline nextDeadline gave")
    func longPressOnDeadline() throws {
        let (harness, device, client) = try setUp()
        harness.feed(EventScript().down(id: 1, x: 400, y: 400), from: device)
        #expect(harness[client].take().map(\.type) == ["down", "gesture"])  // pressing: feedback at the down
        #expect(harness.engine.nextDeadline == Fixtures.ms(1500))
        harness.advance(to: EventTime(microseconds: 1_499_999))
        #expect(harness[client].take().isEmpty)
        #expect(harness.engine.nextDeadline == Fixtures.ms(1500))
        harness.advance(to: Fixtures.ms(1500))
        let began = harness[client].take()
        #expect(gestures(began) == ["long-press began"])
        #expect(began.first?.number("time_us") == 1_500_000)
        #expect(began.first?.string("region") == "hold")
        #expect((began.first?.number("x"), began.first?.number("y")) == (100, 100))
        // Nothing is left for the gesture, and the client subscribed, so it has no closing deadline either.
        #expect(harness.engine.nextDeadline == nil)
    }

    @Test("a deadline passed by the next event's time fires before that event, at its own time")
    func deadlineBeforeNextEvent() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.down(id: 1, x: 400, y: 400)
        script.time = Fixtures.ms(1600)
        script.up()
        harness.feed(script, from: device)
        let lines = harness[client].take()
        #expect(
            lines.map { $0.type == "gesture" ? $0.string("state")! : $0.type! }
                == ["down", "pressing", "began", "up", "ended"])
        #expect(lines[2].number("time_us") == 1_500_000)
        #expect(lines[3].number("time_us") == 1_600_000)
    }

    /// The device reports at 1.6 s without any finger changing (a bare SYN_REPORT): no timer of the daemon's has
    /// fired yet, but the events' own time says the press has begun, and so it is delivered with that batch.
    @Test("a batch that changes no finger still runs the timers due by its time")
    func deadlinePassedByQuietBatch() throws {
        let (harness, device, client) = try setUp()
        harness.feed(EventScript().down(id: 1, x: 400, y: 400), from: device)
        _ = harness[client].take()
        harness.feed(EventScript(start: Fixtures.ms(1600)).report(), from: device)
        let lines = harness[client].take()
        #expect(gestures(lines) == ["long-press began"])
        #expect(lines.first?.number("time_us") == 1_500_000)
    }

    @Test("lifted before the deadline: the press fails at the lift and no timer is left")
    func liftedEarly() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.down(id: 1, x: 400, y: 400)
        script.time = Fixtures.ms(1499)
        script.up()
        harness.feed(script, from: device)
        #expect(gestures(harness[client].take()) == ["long-press pressing", "long-press failed"])
        harness.advance(to: Fixtures.ms(1500))
        #expect(harness[client].take().isEmpty)
    }

    /// On `fav` (raw 3000/400: scene 750/100): the single tap waits for the double tap's window, 300 ms after
    /// the lift at 1.010 s.
    @Test("a single tap beside a double-tap recognizer fires only when the double-tap window has passed")
    func singleTapWaitsForDoubleTapWindow() throws {
        let (harness, device, client) = try setUp()
        harness.feed(EventScript().down(id: 1, x: 3000, y: 400).up(), from: device)
        #expect(harness[client].take().types == ["down", "up"])
        #expect(harness.engine.nextDeadline == Fixtures.ms(1310))
        harness.advance(to: EventTime(microseconds: 1_309_999))
        #expect(harness[client].take().isEmpty)
        harness.advance(to: Fixtures.ms(1310))
        let tap = harness[client].take()
        #expect(gestures(tap) == ["tap ended"])
        #expect(tap.first?.number("taps") == 1)
        #expect(tap.first?.number("time_us") == 1_310_000)
        #expect((tap.first?.number("x"), tap.first?.number("y")) == (750, 100))
    }

    @Test("two quick taps are one double tap at the second lift, and the single tap never fires")
    func doubleTap() throws {
        let (harness, device, client) = try setUp()
        let script = EventScript()
        script.down(id: 1, x: 3000, y: 400).up()
        script.time = Fixtures.ms(1100)
        script.down(id: 2, x: 3000, y: 400).up()
        harness.feed(script, from: device)
        let lines = harness[client].take()
        #expect(gestures(lines) == ["double-tap ended"])
        #expect(lines.ofType("gesture").first?.number("time_us") == 1_110_000)
        #expect(lines.ofType("gesture").first?.number("taps") == 2)
        #expect(lines.ofType("down").map { $0.number("taps") } == [1, 2])
        harness.advance(to: Fixtures.seconds(5))
        #expect(gestures(harness[client].take()).isEmpty)
    }
}
