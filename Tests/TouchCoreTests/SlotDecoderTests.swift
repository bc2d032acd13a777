import Testing
import TouchCore
import TouchTestKit

@Suite("Protocol B slots")
struct SlotDecoderTests {
    let device = TestDevices.touchscreen

    @Test("two fingers in two slots, a move, two lifts")
    func twoSlots() {
        let script = EventScript()
        script.slot(0).trackingID(45).position(x: 100, y: 200)
        script.slot(1).trackingID(46).position(x: 300, y: 400).report()
        script.slot(0).abs(AbsCode.mtPositionX, 150).report()
        script.trackingID(-1).report()  // still slot 0: ABS_MT_SLOT omitted, as the kernel does
        script.slot(1).trackingID(-1).report()
        let (outputs, decoder) = decodeAll(script.events, device: device)
        #expect(
            summarize(outputs) == [
                "down 1 s0 (100,200)", "down 2 s1 (300,400)", "frame",
                "move 1 s0 (150,200)", "frame",
                "up 1 s0 (150,200)", "frame",
                "up 2 s1 (300,400)", "frame",
            ])
        #expect(decoder.liveFingerCount == 0)
    }

    @Test("a stream that never sends ABS_MT_SLOT uses slot 0")
    func implicitSlotZero() {
        let script = EventScript()
        script.trackingID(7).position(x: 10, y: 20).report()
        script.position(x: 11, y: 20).report()
        script.trackingID(-1).report()
        #expect(
            summarize(decodeAll(script.events, device: device).outputs) == [
                "down 1 s0 (10,20)", "frame", "move 1 s0 (11,20)", "frame", "up 1 s0 (11,20)", "frame",
            ])
    }

    @Test("a new tracking id without -1 ends the old touch and starts a new one")
    func trackingIDChangeWithoutLift() {
        let script = EventScript()
        script.slot(0).trackingID(5).position(x: 10, y: 10).report()
        script.trackingID(6).position(x: 900, y: 900).report()
        script.trackingID(-1).report()
        let (outputs, decoder) = decodeAll(script.events, device: device)
        #expect(
            summarize(outputs) == [
                "down 1 s0 (10,10)", "frame",
                "up 1 s0 (10,10)", "down 2 s0 (900,900)", "frame",
                "up 2 s0 (900,900)", "frame",
            ])
        #expect(decoder.diagnostics.trackingIDChangesWithoutLift == 1)
    }

    @Test("axis updates for a slot never opened invent no finger; the next tracking id starts one")
    func midTouchStart() {
        let script = EventScript()
        script.slot(3).position(x: 50, y: 60).report()  // the recording starts mid-touch
        script.abs(AbsCode.mtPositionX, 55).report()
        script.trackingID(-1).report()  // the lift of a touch we never saw
        script.trackingID(9).report()  // new touch: keeps the slot's last values, as the kernel does
        let (outputs, decoder) = decodeAll(script.events, device: device)
        #expect(summarize(outputs) == ["down 1 s3 (55,60)", "frame"])
        #expect(decoder.diagnostics.orphanAxisUpdates == 2)
    }

    @Test("out-of-range slots are ignored until a valid ABS_MT_SLOT")
    func outOfRangeSlot() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1, y: 1).report()
        script.slot(12).trackingID(2).position(x: 99, y: 99).report()  // 10 slots: 12 is out of range
        script.slot(-1).abs(AbsCode.mtPositionX, 5).report()
        script.slot(0).abs(AbsCode.mtPositionX, 2).report()
        let (outputs, decoder) = decodeAll(script.events, device: device)
        #expect(summarize(outputs) == ["down 1 s0 (1,1)", "frame", "move 1 s0 (2,1)", "frame"])
        #expect(decoder.diagnostics.outOfRangeSlots == 2)
    }

    @Test("repeated values and empty frames produce nothing")
    func repeatedValuesAndEmptyFrames() {
        let script = EventScript()
        script.trackingID(1).position(x: 5, y: 5).report()
        script.report().report()  // empty frames
        script.trackingID(1).position(x: 5, y: 5).report()  // same id, same values
        script.key(KeyCode.touch, 1).abs(AbsCode.x, 5).report()  // single-touch emulation only
        #expect(summarize(decodeAll(script.events, device: device).outputs) == ["down 1 s0 (5,5)", "frame"])
    }

    @Test("a touch that begins and ends in one frame is dropped, as libinput does")
    func zeroLengthTouch() {
        let script = EventScript()
        script.trackingID(1).position(x: 5, y: 5).trackingID(-1).report()
        let (outputs, decoder) = decodeAll(script.events, device: device)
        #expect(outputs.isEmpty)
        #expect(decoder.diagnostics.zeroLengthTouches == 1)
    }

    @Test("finger ids are never reused, even when slots and tracking ids are")
    func idsNeverReused() {
        let script = EventScript()
        for _ in 0..<5 {
            script.slot(0).trackingID(1).position(x: 1, y: 1).report()
            script.trackingID(-1).report()
        }
        let downs = decodeAll(script.events, device: device).outputs.compactMap { output -> UInt32? in
            if case .finger(let event) = output, event.phase == .down { return event.finger.rawValue }
            return nil
        }
        #expect(downs == [1, 2, 3, 4, 5])
    }

    @Test("pressure, touch major and tool type travel with the event")
    func attributes() {
        let script = EventScript()
        script.trackingID(1).position(x: 1, y: 2).abs(AbsCode.mtPressure, 40).abs(AbsCode.mtTouchMajor, 7)
            .tool(ToolType.finger).report()
        let outputs = decodeAll(script.events, device: device).outputs
        guard case .finger(let event) = outputs.first else {
            Issue.record("no finger event")
            return
        }
        #expect(event.contact.pressure == 40)
        #expect(event.contact.touchMajor == 7)
        #expect(event.contact.toolType == ToolType.finger)
        #expect(event.contact.orientation == nil)
    }

    /// A panel with the most slots touchd keeps (64): one bit of the decoder's changed-slot mask each.
    static var sixtyFourSlots: DeviceDescription {
        var device = TestDevices.touchscreen
        device.absInfo[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: 63)
        return device
    }

    @Test("64 slots: the first and the last change in one frame, reported in slot order, whichever came first")
    func firstAndLastSlot() {
        let script = EventScript()
        script.slot(63).trackingID(5).position(x: 630, y: 63).slot(0).trackingID(6).position(x: 1, y: 2).report()
        script.slot(63).position(x: 631, y: 63).slot(0).position(x: 3, y: 2).report()
        script.slot(63).abs(AbsCode.mtPressure, 9).report()
        script.slot(0).trackingID(-1).slot(63).trackingID(-1).report()
        let (outputs, decoder) = decodeAll(script.events, device: Self.sixtyFourSlots)
        #expect(
            summarize(outputs) == [
                "down 1 s0 (1,2)", "down 2 s63 (630,63)", "frame",
                "move 1 s0 (3,2)", "move 2 s63 (631,63)", "frame",
                "move 2 s63 (631,63)", "frame",
                "up 1 s0 (3,2)", "up 2 s63 (631,63)", "frame",
            ])
        #expect(decoder.liveFingerCount == 0)
    }

    @Test("64 slots: a resync looks at every slot, the last included; a frame after it starts clean")
    func resyncEverySlot() {
        var decoder = TouchDecoder(description: Self.sixtyFourSlots)
        var outputs: [DecoderOutput] = []
        var snapshot = DeviceSnapshot(slots: Array(repeating: SlotSnapshot(), count: 64), currentSlot: 63)
        snapshot.slots[0] = SlotSnapshot(trackingID: 1, contact: ContactState(x: 10, y: 10))
        snapshot.slots[63] = SlotSnapshot(trackingID: 2, contact: ContactState(x: 20, y: 20))
        decoder.resync(to: snapshot, at: EventTime(microseconds: 1_000), into: &outputs)
        let after = EventScript(start: EventTime(microseconds: 2_000))
        after.abs(AbsCode.mtPositionX, 21).report()  // still slot 63, as the snapshot left it
        for event in after.events { decoder.process(event, into: &outputs) }
        #expect(
            summarize(outputs) == [
                "down 1 s0 (10,10)", "down 2 s63 (20,20)", "frame", "move 2 s63 (21,20)", "frame",
            ])
    }
}
