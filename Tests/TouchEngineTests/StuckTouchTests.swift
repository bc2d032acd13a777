import Testing
import TouchCore
import TouchEngine
import TouchScene
import TouchTestKit
import TouchWire

/// Stuck touches (`StuckTouchPolicy`) in virtual time, on the test touchscreen (0...4095 at 16 units/mm, so the
/// jitter radius of 2 mm is 32 units). Finger A (slot 0) goes down and, in the silent cases, reports nothing more;
/// finger B (slot 1) moves. Times are the events' own; `runTimers` plays the daemon's timer with no device event.
@Suite("Engine: stuck touches")
struct StuckTouchTests {
    static let emptyScene = #"{"size": [4096, 4096], "regions": []}"#

    func setUp(
        _ policy: StuckTouchPolicy, forwarding: Bool = false
    ) throws -> (EngineHarness, DeviceHandle, ClientID) {
        let harness = EngineHarness(scene: Fixtures.scene(Self.emptyScene))
        var spec = Fixtures.touchscreen()
        spec.stuckTouches = policy
        if forwarding { spec.virtualTouchscreen = VirtualTouchscreen.description(for: spec.description) }
        let device = try harness.addDevice(spec)
        let client = try harness.client()
        try harness.subscribe(client, #""events":["touch"]"#)
        return (harness, device, client)
    }

    static func at(_ microseconds: Int64) -> EventTime { EventTime(microseconds: microseconds) }

    /// A down in `slot` with tracking id `id` at `time`.
    static func down(slot: Int32, id: Int32, x: Int32, y: Int32, at time: Int64) -> [InputEvent] {
        let script = EventScript(start: at(time))
        script.slot(slot).trackingID(id).position(x: x, y: y).report()
        return script.events
    }

    static func move(slot: Int32, x: Int32, y: Int32, at time: Int64) -> [InputEvent] {
        let script = EventScript(start: at(time))
        script.slot(slot).position(x: x, y: y).report()
        return script.events
    }

    static func lift(slot: Int32, at time: Int64) -> [InputEvent] {
        let script = EventScript(start: at(time))
        script.slot(slot).trackingID(-1).report()
        return script.events
    }

    /// A down at 1 s, B down at 1.01 s and moving by 20 units every 100 ms from 1.1 s up to `until` (µs).
    func silentA(_ harness: EngineHarness, _ device: DeviceHandle, bMovesUntil until: Int64) {
        harness.feed(Self.down(slot: 0, id: 10, x: 1000, y: 1000, at: 1_000_000), from: device)
        harness.feed(Self.down(slot: 1, id: 11, x: 3000, y: 1000, at: 1_010_000), from: device)
        var time: Int64 = 1_100_000
        var x: Int32 = 3000
        while time <= until {
            x += 20
            harness.feed(Self.move(slot: 1, x: x, y: 1000, at: time), from: device)
            time += 100_000
        }
    }

    static let silent5s = StuckTouchPolicy(silentLimit: .milliseconds(5_000))

    @Test("silent while another touch moves: cancelled at exactly the limit by the timer, not a microsecond before")
    func silentAtTheLimit() throws {
        let (harness, device, client) = try setUp(Self.silent5s)
        silentA(harness, device, bMovesUntil: 5_900_000)
        // A's last report was its down at 1 s: the limit is 6 s, and the device sends nothing after B's 5.9 s.
        #expect(harness.engine.nextDeadline == Self.at(6_000_000))
        harness.runTimers(until: Self.at(5_999_999))
        #expect(harness[client].take().touches.ofType("cancel").isEmpty)
        harness.runTimers(until: Self.at(6_000_000))
        let cancels = harness[client].take().touches.ofType("cancel")
        #expect(cancels.count == 1)
        #expect(cancels.first?.number("time_us") == 6_000_000)
        #expect(cancels.first?.number("slot") == 0)
        #expect(harness.engine.stuckCancels(of: device) == 1)
        #expect(harness.engine.decoder(of: device)?.liveFingerCount == 1)
        let lines = harness.logged("cancelled as stuck")
        #expect(
            lines == [
                "/dev/input/event3 (\"touchd test touchscreen\"): touch in slot 0 cancelled as stuck: it reported"
                    + " nothing for 5.000 s while other touches did"
            ])
        #expect(harness.logs.first { $0.message.contains("cancelled as stuck") }?.severity == .warning)
        #expect(harness.statuses.last == "1 device(s), 1 client(s), scene version 1, 1 stuck touch(es) cancelled")
    }

    @Test("a frame at the limit: the cancel comes first, and the cancelled touch's own later events are ignored")
    func laterEventsIgnoredUntilLift() throws {
        let (harness, device, client) = try setUp(Self.silent5s)
        silentA(harness, device, bMovesUntil: 5_900_000)
        _ = harness[client].take()
        // A frame of A itself at 6 s: the limit passed with it, so A is cancelled before it and it is ignored.
        harness.feed(Self.move(slot: 0, x: 1200, y: 1000, at: 6_000_000), from: device)
        harness.feed(Self.move(slot: 0, x: 1400, y: 1000, at: 6_100_000), from: device)
        harness.feed(Self.lift(slot: 0, at: 6_200_000), from: device)
        let touches = harness[client].take().touches
        #expect(touches.map { $0.type ?? "" } == ["cancel"])
        #expect(touches.first?.number("time_us") == 6_000_000)
        // A new tracking id in that slot is a new touch.
        harness.feed(Self.down(slot: 0, id: 12, x: 500, y: 500, at: 6_300_000), from: device)
        harness.feed(Self.move(slot: 0, x: 600, y: 500, at: 6_400_000), from: device)
        harness.feed(Self.lift(slot: 0, at: 6_500_000), from: device)
        #expect(harness[client].take().touches.map { $0.type ?? "" } == ["down", "move", "up"])
        #expect(harness.engine.stuckCancels(of: device) == 1)
    }

    @Test("a touch lifted before the limit, or silent with no other touch reporting, is not cancelled")
    func untouchedBeforeTheLimit() throws {
        let (harness, device, client) = try setUp(Self.silent5s)
        silentA(harness, device, bMovesUntil: 5_900_000)
        harness.feed(Self.lift(slot: 0, at: 5_999_999), from: device)
        // B stops moving at 5.9 s; no touch reports after it, so B stays down however long it is silent.
        harness.runTimers(until: Self.at(100_000_000))
        let touches = harness[client].take().touches
        #expect(touches.ofType("cancel").isEmpty)
        #expect(touches.ofType("up").count == 1)
        #expect(harness.engine.stuckCancels(of: device) == 0)
        #expect(harness.engine.nextDeadline == nil)
        #expect(harness.logged("stuck").isEmpty)
    }

    @Test("motionless past the limit, moving within the 32-unit jitter radius: cancelled at the limit")
    func motionless() throws {
        let (harness, device, client) = try setUp(StuckTouchPolicy(motionlessLimit: .milliseconds(30_000)))
        harness.feed(Self.down(slot: 0, id: 10, x: 2000, y: 2000, at: 1_000_000), from: device)
        // Wandering up to 31 units on x and 20 on y (inside the ellipse): still motionless.
        var time: Int64 = 1_500_000
        var step = 0
        while time < 31_000_000 {
            let offsets: [(Int32, Int32)] = [(31, 0), (-20, 20), (0, -31), (15, 15)]
            let (dx, dy) = offsets[step % offsets.count]
            harness.feed(Self.move(slot: 0, x: 2000 + dx, y: 2000 + dy, at: time), from: device)
            time += 500_000
            step += 1
        }
        #expect(harness[client].take().touches.ofType("cancel").isEmpty)
        harness.runTimers(until: Self.at(31_000_000))
        let cancels = harness[client].take().touches.ofType("cancel")
        #expect(cancels.map { $0.number("time_us") } == [31_000_000])
        #expect(harness.logged("it stayed within the jitter radius (2 mm) for 30.000 s").count == 1)
    }

    @Test("a move past the jitter radius starts the motionless time again")
    func motionRestartsTheLimit() throws {
        let (harness, device, client) = try setUp(StuckTouchPolicy(motionlessLimit: .milliseconds(30_000)))
        harness.feed(Self.down(slot: 0, id: 10, x: 2000, y: 2000, at: 1_000_000), from: device)
        harness.feed(Self.move(slot: 0, x: 2033, y: 2000, at: 10_000_000), from: device)
        harness.runTimers(until: Self.at(39_999_999))
        #expect(harness[client].take().touches.ofType("cancel").isEmpty)
        harness.runTimers(until: Self.at(40_000_000))
        #expect(harness[client].take().touches.ofType("cancel").map { $0.number("time_us") } == [40_000_000])
    }

    @Test("the virtual touchscreen gets the palm cancel: the slot turns MT_TOOL_PALM in one frame, then lifts")
    func virtualTouchscreenPalmFrame() throws {
        let (harness, device, _) = try setUp(Self.silent5s, forwarding: true)
        silentA(harness, device, bMovesUntil: 5_900_000)
        let before = harness.emitted.count
        harness.runTimers(until: Self.at(6_000_000))
        let frames = harness.emitted.dropFirst(before).map {
            $0.frame.map { "\($0.type):\($0.code):\($0.value)" }.joined(separator: " ")
        }
        // ABS_MT_SLOT 0 (47), ABS_MT_TOOL_TYPE palm (55 = 2), SYN_REPORT; then tracking id -1 (57), the
        // single-touch emulation following B (ABS_X 0; B's y is A's), SYN_REPORT. B's 49 moves took it to x 3980.
        #expect(frames == ["3:47:0 3:55:2 0:0:0 3:57:-1 3:0:3980 0:0:0"])
        #expect(harness.engine.virtualFingerCount(of: device) == 1)
    }

    @Test("the devices reply counts the device's stuck cancels; the hello does not carry the count")
    func devicesReplyCounts() throws {
        let (harness, device, client) = try setUp(Self.silent5s)
        silentA(harness, device, bMovesUntil: 5_900_000)
        harness.runTimers(until: Self.at(6_000_000))
        let reply = harness.request(#"{"op":"devices","id":"d"}"#, from: client)
        #expect(reply.last?.text.contains(#""stuck_cancels":1"#) == true)
        let other = try harness.client()
        #expect(harness[other].take().first?.text.contains("stuck_cancels") == false)
    }

    @Test("off: a silent touch stays down, and the engine asks for no deadline")
    func off() throws {
        let (harness, device, client) = try setUp(.off)
        silentA(harness, device, bMovesUntil: 7_000_000)
        harness.runTimers(until: Self.at(1_000_000_000))
        #expect(harness[client].take().touches.ofType("cancel").isEmpty)
        #expect(harness.engine.nextDeadline == nil)
    }
}

@Suite("Engine: stuck touches, what the silent rule leaves alone")
struct StuckTouchSilenceTests {
    typealias T = StuckTouchTests

    @Test("two fingers put down together and held still: neither is cancelled, however long")
    func twoStillFingers() throws {
        let (harness, device, client) = try T().setUp(T.silent5s)
        harness.feed(T.down(slot: 0, id: 10, x: 1000, y: 1000, at: 1_000_000), from: device)
        harness.feed(T.down(slot: 1, id: 11, x: 3000, y: 1000, at: 1_010_000), from: device)
        harness.runTimers(until: T.at(600_000_000))
        #expect(harness[client].take().touches.ofType("cancel").isEmpty)
        #expect(harness.engine.nextDeadline == nil)
    }

    @Test("another touch reporting only after the limit: the silent touch is cancelled with that report")
    func reportAfterTheLimit() throws {
        let (harness, device, client) = try T().setUp(T.silent5s)
        harness.feed(T.down(slot: 0, id: 10, x: 1000, y: 1000, at: 1_000_000), from: device)
        harness.feed(T.down(slot: 1, id: 11, x: 3000, y: 1000, at: 1_010_000), from: device)
        harness.runTimers(until: T.at(9_000_000))
        harness.feed(T.move(slot: 1, x: 3100, y: 1000, at: 10_000_000), from: device)
        harness.runTimers(until: T.at(10_000_000))
        let touches = harness[client].take().touches
        #expect(touches.map { $0.type ?? "" } == ["down", "down", "move", "cancel"])
        #expect(touches.last?.number("time_us") == 10_000_000)
        #expect(touches.last?.number("slot") == 0)
        #expect(harness.logged("it reported nothing for 9.000 s while other touches did").count == 1)
    }
}

@Suite("Engine: stuck touches on protocol A")
struct StuckContactReportTests {
    /// One protocol A frame: each contact a position and `SYN_MT_REPORT`, then `SYN_REPORT`.
    static func frame(_ contacts: [(Int32, Int32)], at time: Int64) -> [InputEvent] {
        let script = EventScript(start: StuckTouchTests.at(time))
        for (x, y) in contacts { script.position(x: x, y: y).contactReport() }
        script.report()
        return script.events
    }

    @Test("a contact listed unchanged while another moves is silent: cancelled at the limit, never reported again")
    func unchangedContact() throws {
        let harness = EngineHarness(scene: Fixtures.scene(StuckTouchTests.emptyScene))
        var spec = DeviceSpec(
            key: .named("event4"), node: "/dev/input/event4", description: TestDevices.contactReporter)
        spec.filter = .off
        spec.stuckTouches = StuckTouchTests.silent5s
        let device = try harness.addDevice(spec)
        let client = try harness.client()
        try harness.subscribe(client, #""events":["touch"]"#)
        // The ghost at (1000, 1000) in every frame; a finger from (6000, 3000) moving 10 units a frame.
        var time: Int64 = 1_000_000
        var x: Int32 = 6000
        while time <= 7_000_000 {
            harness.feed(Self.frame([(1000, 1000), (x, 3000)], at: time), from: device)
            time += 100_000
            x += 10
        }
        // The ghost leaves the list, and a new contact comes where it was.
        harness.feed(Self.frame([(x, 3000)], at: 7_100_000), from: device)
        harness.feed(Self.frame([(1000, 1000), (x, 3000)], at: 7_200_000), from: device)
        let touches = harness[client].take().touches
        let cancels = touches.ofType("cancel")
        #expect(cancels.map { $0.number("time_us") } == [6_000_000])
        #expect(touches.ofType("down").count == 3)
        let ghost = touches.filter { $0.number("finger") == cancels.first?.number("finger") }
        #expect(ghost.map { $0.type ?? "" } == ["down", "cancel"])
    }
}
