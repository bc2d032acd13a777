import Testing
import TouchCore
import TouchDevice
import TouchTestKit

/// The state the kernel reports after a drop (EVIOCGMTSLOTS an axis, EVIOCGABS, EVIOCGKEY), built by hand, turned
/// into the decoder's resync input and resolved by the real decoder.
@Suite("The kernel's state after SYN_DROPPED, as the decoder's resync input")
struct KernelTouchStateTests {
    /// TestDevices.touchscreen has positions, pressure and tool type, not touch size, orientation or distance.
    @Test("the axes asked for are the tracking id and the MT axes the device has")
    func axesOfDevice() {
        #expect(
            KernelTouchState.slotAxes(of: TestDevices.touchscreen) == [
                AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtPressure,
                AbsCode.mtToolType,
            ])
        #expect(KernelTouchState.hasSlots(TestDevices.touchscreen))
        #expect(!KernelTouchState.hasSlots(TestDevices.contactReporter))
        #expect(!KernelTouchState.hasSlots(TestDevices.singleTouch))
    }

    /// Three slots: 0 held by tracking id 5 at (100, 200), 1 empty (its last values stay, as in the kernel), 2 held
    /// by 7 at (300, 400) with pressure 40; the next event addresses slot 2.
    @Test("slot arrays become one slot snapshot each, the current slot kept")
    func slotsSnapshot() {
        let state = KernelTouchState.slots(
            values: [
                AbsCode.mtTrackingID: [5, -1, 7], AbsCode.mtPositionX: [100, 900, 300],
                AbsCode.mtPositionY: [200, 900, 400], AbsCode.mtPressure: [30, 0, 40],
            ], current: 2)
        var first = ContactState(x: 100, y: 200)
        first.pressure = 30
        var empty = ContactState(x: 900, y: 900)
        empty.pressure = 0
        var third = ContactState(x: 300, y: 400)
        third.pressure = 40
        #expect(
            state.snapshot
                == DeviceSnapshot(
                    slots: [
                        SlotSnapshot(trackingID: 5, contact: first), SlotSnapshot(trackingID: -1, contact: empty),
                        SlotSnapshot(trackingID: 7, contact: third),
                    ], currentSlot: 2))
    }

    @Test("a single-touch device's state is slot 0, held while BTN_TOUCH is down")
    func singleSnapshot() {
        var contact = ContactState(x: 10, y: 20)
        contact.pressure = 90
        #expect(
            KernelTouchState.single(x: 10, y: 20, pressure: 90, touching: true).snapshot
                == DeviceSnapshot(slots: [SlotSnapshot(trackingID: 0, contact: contact)]))
        #expect(
            KernelTouchState.single(x: 10, y: 20, pressure: nil, touching: false).snapshot.slots.map(\.trackingID)
                == [-1])
    }

    /// Fingers 1 (slot 0, id 10) and 2 (slot 1, id 11) are down when the kernel drops events. Meanwhile finger 1
    /// moved to (150, 250), finger 2 lifted and a new touch (id 12) went down in slot 2 at (700, 800). The decoder,
    /// given the kernel's arrays, must move 1, cancel 2 (its real lift was lost) and put the new touch down as 3
    /// (docs/decoding.md, SYN_DROPPED).
    @Test("the decoder resolves a drop from the kernel's arrays: moved, cancelled, new")
    func decoderResolvesDrop() {
        let script = EventScript()
        script.slot(0).trackingID(10).position(x: 100, y: 200).slot(1).trackingID(11).position(x: 500, y: 600)
            .report()
        script.slot(0).position(x: 120, y: 220).dropped()
        var decoder = TouchDecoder(description: TestDevices.touchscreen)
        var outputs: [DecoderOutput] = []
        for event in script.events { decoder.process(event, into: &outputs) }
        let ids: [Int32] = [10, -1, 12] + Array(repeating: -1, count: 7)
        let xs: [Int32] = [150, 500, 700] + Array(repeating: 0, count: 7)
        let ys: [Int32] = [250, 600, 800] + Array(repeating: 0, count: 7)
        let state = KernelTouchState.slots(
            values: [AbsCode.mtTrackingID: ids, AbsCode.mtPositionX: xs, AbsCode.mtPositionY: ys], current: 2)
        let before = outputs.count
        decoder.resync(to: state.snapshot, at: script.time, into: &outputs)
        #expect(
            summarize(Array(outputs[before...])) == [
                "move 1 s0 (150,250)", "cancel 2 s1 (500,600)", "down 3 s2 (700,800)", "frame",
            ])
        #expect(decoder.liveFingerCount == 2)
    }
}
