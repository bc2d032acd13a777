import Testing
import TouchCore
import TouchTestKit

@Suite("Palm and SYN_DROPPED")
struct PalmAndResyncTests {
    let device = TestDevices.touchscreen

    @Test("a live touch that turns into a palm ends in exactly one cancel")
    func palmCancels() {
        let script = EventScript()
        script.slot(0).trackingID(1).tool(ToolType.finger).position(x: 10, y: 10).report()
        script.slot(1).trackingID(2).position(x: 500, y: 500).report()
        script.slot(0).tool(ToolType.palm).position(x: 12, y: 10).report()
        script.position(x: 20, y: 20).report()  // the palm moves: nothing
        script.tool(ToolType.finger).report()  // back to finger: still ignored until it lifts
        script.trackingID(-1).report()  // its lift: nothing
        script.trackingID(3).tool(ToolType.finger).position(x: 30, y: 30).report()  // a new touch is seen again
        let (outputs, decoder) = decodeAll(script.events, device: device)
        #expect(
            summarize(outputs) == [
                "down 1 s0 (10,10)", "frame",
                "down 2 s1 (500,500)", "frame",
                "cancel 1 s0 (12,10)", "frame",
                "down 3 s0 (30,30)", "frame",
            ])
        #expect(decoder.diagnostics.palmCancels == 1)
        #expect(decoder.liveFingerCount == 2)
    }

    @Test("a touch that starts as a palm is never reported")
    func palmFromTheStart() {
        let script = EventScript()
        script.trackingID(1).tool(ToolType.palm).position(x: 10, y: 10).report()
        script.position(x: 11, y: 11).report()
        script.trackingID(-1).report()
        let (outputs, decoder) = decodeAll(script.events, device: device)
        #expect(outputs.isEmpty)
        #expect(decoder.diagnostics.palmsSuppressed == 1)
    }

    /// Before the drop: fingers A (slot 0) and B (slot 1). During the drop A lifted, B moved, C landed in
    /// slot 2. The snapshot says so; the decoder must cancel A, move B, put C down. Never a stuck or ghost finger.
    @Test("a drop resolved from a snapshot: vanished cancel, moved move, new down")
    func snapshotResync() {
        let script = EventScript()
        script.slot(0).trackingID(10).position(x: 100, y: 100)
        script.slot(1).trackingID(11).position(x: 200, y: 200).report()
        script.slot(0).position(x: 101, y: 100).dropped()
        script.slot(2).trackingID(12).position(x: 300, y: 300)  // discarded: part of the drop
        script.report()
        var decoder = TouchDecoder(description: device)
        var outputs: [DecoderOutput] = []
        for event in script.events { decoder.process(event, into: &outputs) }
        #expect(decoder.needsResync)
        var snapshot = DeviceSnapshot(slots: Array(repeating: SlotSnapshot(), count: 10), currentSlot: 2)
        snapshot.slots[1] = SlotSnapshot(trackingID: 11, contact: ContactState(x: 250, y: 260))
        snapshot.slots[2] = SlotSnapshot(trackingID: 12, contact: ContactState(x: 300, y: 300))
        decoder.resync(to: snapshot, at: script.time, into: &outputs)
        #expect(
            summarize(outputs) == [
                "down 1 s0 (100,100)", "down 2 s1 (200,200)", "frame",
                "cancel 1 s0 (100,100)", "move 2 s1 (250,260)", "down 3 s2 (300,300)", "frame",
            ])
        #expect(decoder.liveFingerCount == 2)
        #expect(decoder.diagnostics.eventsDiscardedInDrop == 4)

        // Afterwards the stream continues from the snapshot's state.
        let after = EventScript(start: script.time)
        after.slot(2).trackingID(-1).report()
        outputs.removeAll()
        for event in after.events { decoder.process(event, into: &outputs) }
        #expect(summarize(outputs) == ["up 3 s2 (300,300)", "frame"])
    }

    @Test("a drop in a recording (no snapshot) cancels every live touch once; orphans stay invisible")
    func blindResync() {
        let script = EventScript()
        script.slot(0).trackingID(10).position(x: 100, y: 100)
        script.slot(1).trackingID(11).position(x: 200, y: 200).report()
        script.dropped().position(x: 1, y: 1).report()
        script.slot(0).position(x: 105, y: 100).report()  // A is still down, but we cannot know it
        script.slot(0).trackingID(-1).report()
        script.slot(1).trackingID(20).position(x: 50, y: 50).report()  // a new id after the drop is a real touch
        let (outputs, decoder) = decodeAll(script.events, device: device)
        #expect(
            summarize(outputs) == [
                "down 1 s0 (100,100)", "down 2 s1 (200,200)", "frame",
                "cancel 1 s0 (100,100)", "cancel 2 s1 (200,200)", "frame",
                "down 3 s1 (50,50)", "frame",
            ])
        #expect(decoder.diagnostics.blindResyncs == 1)
        #expect(decoder.liveFingerCount == 1)
    }

    @Test("device removal cancels every live finger exactly once")
    func cancelAll() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1, y: 1).slot(4).trackingID(2).position(x: 2, y: 2).report()
        var (outputs, decoder) = decodeAll(script.events, device: device)
        decoder.cancelAll(at: script.time, into: &outputs)
        decoder.cancelAll(at: script.time, into: &outputs)  // a second removal notice adds nothing
        #expect(
            summarize(outputs) == [
                "down 1 s0 (1,1)", "down 2 s4 (2,2)", "frame", "cancel 1 s0 (1,1)", "cancel 2 s4 (2,2)", "frame",
            ])
    }
}
