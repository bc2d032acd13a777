import Testing
import TouchCore
import TouchDevice
import TouchEngine
import TouchPosix
import TouchTestKit

@testable import TouchDaemon

/// A device reader that hands out scripted reads, one a call, as EvdevDevice does: a read that meets a drop ends
/// with the `SYN_DROPPED` and gives the state the kernel reported; the events after the drop are the next read's.
final class ScriptedReader: EvdevReading {
    let fd: Int32 = -1
    var reads: [(events: [InputEvent], resync: DeviceSnapshot?)]

    init(_ reads: [(events: [InputEvent], resync: DeviceSnapshot?)]) { self.reads = reads }

    func readEvents(into events: inout [InputEvent]) throws(DeviceReadError) -> DeviceSnapshot? {
        guard !reads.isEmpty else { return nil }
        let read = reads.removeFirst()
        events.append(contentsOf: read.events)
        return read.resync
    }
}

@Suite("A drop mid-stroke: the fingers held through it go on")
struct DropMidStrokeTests {
    /// Two fingers down, one moved, then the drop; the state the drop was resolved to (both held, moved on); then
    /// both moved twice and lifted.
    static func script() -> (before: [InputEvent], resolved: DeviceSnapshot, after: [InputEvent]) {
        let before = EventScript()
        before.slot(0).trackingID(10).position(x: 100, y: 100)
            .slot(1).trackingID(11).position(x: 2000, y: 100).report()
        before.slot(0).position(x: 100, y: 300).report()
        before.dropped()
        let resolved = DeviceSnapshot(slots: [
            SlotSnapshot(trackingID: 10, contact: ContactState(x: 100, y: 500)),
            SlotSnapshot(trackingID: 11, contact: ContactState(x: 2000, y: 500)),
        ])
        let after = EventScript(start: before.time + .milliseconds(50))
        after.slot(0).position(x: 100, y: 700).slot(1).position(x: 2000, y: 700).report()
        after.slot(0).position(x: 100, y: 900).slot(1).position(x: 2000, y: 900).report()
        after.slot(0).trackingID(-1).slot(1).trackingID(-1).report()
        return (before.events, resolved, after.events)
    }

    static func daemon() throws -> (Daemon, DeviceHandle, () -> [String]) {
        let logger = Logger(threshold: .error, handler: StderrLogHandler())
        let daemon = try Daemon(config: Config(), options: Daemon.Options(), logger: logger)
        daemon.timer = try LoopTimer(loop: daemon.loop) {}
        var decoded: [String] = []
        daemon.engine.output = EngineObserver { event in
            if case .decoded(.finger(let mapped), _, _) = event {
                let finger = mapped.event
                decoded.append("\(finger.finger.rawValue) \(finger.phase.rawValue) \(finger.contact.y)")
            }
        }
        let device = try #require(
            daemon.engine.addDevice(
                DeviceSpec(key: .named("event9"), node: "/dev/input/event9", description: TestDevices.touchscreen),
                at: EventTime(microseconds: 1_000_000)))
        return (daemon, device, { decoded })
    }

    /// Two fingers down, then a drop while both are held (the kernel's buffer overflowed), then both move and lift.
    /// One wake-up of the device's handler must read all of it, the resolved state before what followed the drop.
    @Test("one wake-up reads past the drop: the held fingers move on and lift, with no cancel")
    func heldFingersGoOn() throws {
        let (daemon, device, decoded) = try Self.daemon()
        let (before, resolved, after) = Self.script()
        daemon.readDevice(device, from: ScriptedReader([(before, resolved), (after, nil)]))
        // Down at 100, moved to 300, to 500 by the resync, to 700 and 900 after the drop, then lifted.
        #expect(
            decoded() == [
                "1 down 100", "2 down 100",
                "1 move 300",
                "1 move 500", "2 move 500",
                "1 move 700", "2 move 700",
                "1 move 900", "2 move 900",
                "1 up 900", "2 up 900",
            ])
        #expect(daemon.engine.decoder(of: device)?.liveFingerCount == 0)
    }

    /// Why the drop must end a read: with the events after it in the same read, ahead of the state taken at the end
    /// of the read, the decoder, seeing a whole frame where it waits for that state, must
    /// assume none comes (as in a recording) and cancels the held fingers; the state then brings them back as new
    /// fingers. Mid-stroke, a drag or pinch they were making ends, though nothing was lifted.
    @Test("the events after a drop handed over before the resolved state: the held fingers are cancelled mid-stroke")
    func stateAfterTheEventsLosesHeldFingers() throws {
        let (daemon, device, decoded) = try Self.daemon()
        let (before, _, after) = Self.script()
        // Both frames of moves in the drop's read (the first of them the decoder discards, as the kernel asks).
        let reports = after.indices.filter { after[$0].isSynReport }
        let moved = Array(after[...reports[1]])
        let endOfRead = DeviceSnapshot(slots: [
            SlotSnapshot(trackingID: 10, contact: ContactState(x: 100, y: 900)),
            SlotSnapshot(trackingID: 11, contact: ContactState(x: 2000, y: 900)),
        ])
        daemon.engine.process(before + moved, from: device)
        daemon.engine.resync(device, to: endOfRead, at: EventTime(microseconds: 2_000_000))
        daemon.engine.process(Array(after.dropFirst(moved.count)), from: device)
        #expect(
            decoded() == [
                "1 down 100", "2 down 100", "1 move 300", "1 cancel 300", "2 cancel 100",
                "3 down 900", "4 down 900", "3 up 900", "4 up 900",
            ])
    }
}
