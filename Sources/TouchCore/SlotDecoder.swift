/// Multitouch protocol B: a state machine over kernel slots.
///
/// Events only write into the slot they address; at `SYN_REPORT` the decoder compares each changed slot with
/// what it last reported and emits the difference (as libinput's evdev-fallback does with its dirty slots):
///
/// | slot now \ last reported       | nothing reported             | touch T reported                    |
/// |--------------------------------|------------------------------|-------------------------------------|
/// | tracking id -1                 | nothing (orphan axis data)   | `up` T                              |
/// | same id as T, not restarted    | —                            | `move` if any axis changed          |
/// | new id, or T's id restarted    | `down` new                   | `up` T, then `down` new             |
/// | tool turned MT_TOOL_PALM       | nothing (palm suppressed)    | `cancel` T; ignored until its lift  |
/// | (T passed a stuck-touch limit) | —                            | `cancel` T; ignored until its lift  |
///
/// Single-touch devices run through the same machine with one slot (see `TouchDecoder`).
@usableFromInline
struct SlotDecoder {
    /// The slot as the event stream has described it so far in this frame.
    @usableFromInline
    struct Slot {
        var trackingID: Int32 = -1
        @usableFromInline var contact = ContactState()
        /// A tracking id ended or was replaced this frame while a touch was open.
        var restarted = false
        /// A tracking id >= 0 was assigned this frame.
        var opened = false
    }

    /// What consumers were last told about a slot's touch.
    struct Reported {
        var finger: FingerID
        var trackingID: Int32
        var contact: ContactState
    }

    // Internal and usable from inlined code, as `currentSlot` and `changedSlots`: `setAxis` is inlined into the
    // caller of `TouchDecoder.takeAxis`.
    @usableFromInline var slots: [Slot]
    private(set) var reported: [Reported?]
    /// Per slot, the tracking id of a palm that consumers must not see (-1: none).
    private var ignoredTrackingID: [Int32]
    /// The slot that axis events address; -1 after an out-of-range `ABS_MT_SLOT`.
    @usableFromInline var currentSlot: Int = 0
    /// Bit n: an event addressed slot n this frame. A flush visits only these (a frame changes one or two slots of
    /// ten or more), in the order of their numbers; at most `DeviceDescription.maximumSlots` (64) slots.
    @usableFromInline var changedSlots: UInt64 = 0
    /// A touch whose major axis passes this (device units) is a palm (`ContactState.isPalm(majorAbove:)`).
    var palmMajor: Int32?

    init(slotCount: Int) {
        precondition(slotCount >= 1 && slotCount <= UInt64.bitWidth, "one bit of changedSlots for each slot")
        slots = Array(repeating: Slot(), count: slotCount)
        reported = Array(repeating: nil, count: slotCount)
        ignoredTrackingID = Array(repeating: -1, count: slotCount)
    }

    /// The touches reported and not ended: kept as `reported` changes, so that `touchd replay`'s summary, which asks
    /// once a frame, does not walk every slot (about 100 instructions a frame on a ten-slot panel).
    private(set) var liveCount = 0

    /// The finger reported for `slot`, if any.
    func reportedFinger(inSlot slot: Int) -> FingerID? { reported[slot]?.finger }

    /// Whether `ABS_MT_SLOT` `value` names one of the slots.
    @inlinable
    func hasSlot(_ value: Int32) -> Bool { value >= 0 && Int(value) < slots.count }

    mutating func selectSlot(_ value: Int32, diagnostics: inout DecoderDiagnostics) {
        if hasSlot(value) {
            currentSlot = Int(value)
        } else {
            currentSlot = -1
            diagnostics.outOfRangeSlots += 1
        }
    }

    mutating func setTrackingID(_ value: Int32, diagnostics: inout DecoderDiagnostics) {
        guard currentSlot >= 0 else { return }
        let old = slots[currentSlot].trackingID
        if value < 0 {
            guard old >= 0 else { return }  // the lift of a touch never opened: nothing to end
            slots[currentSlot].trackingID = -1
            slots[currentSlot].restarted = true
        } else if value != old {
            if old >= 0 {
                slots[currentSlot].restarted = true
                diagnostics.trackingIDChangesWithoutLift += 1
            }
            slots[currentSlot].trackingID = value
            slots[currentSlot].opened = true
        }
        changedSlots |= 1 << UInt64(currentSlot)
    }

    /// Whether `code` is an axis of a slot's contact (`setAxis`): position, size, orientation, tool, pressure,
    /// distance; not the tracking id among them.
    @inlinable
    static func isAxis(_ code: UInt16) -> Bool {
        ((AbsCode.mtPositionX...AbsCode.mtDistance).contains(code) && code != AbsCode.mtTrackingID)
            || (AbsCode.mtTouchMajor...AbsCode.mtOrientation).contains(code)
    }

    // Always inlined into the decoder's switch: most input events are one of these, and a call's frame would cost
    // about a quarter of the whole.
    @inlinable @inline(__always)
    mutating func setAxis(_ code: UInt16, _ value: Int32) {
        guard currentSlot >= 0 else { return }
        if slots[currentSlot].contact.setMultitouchAxis(code, value) {
            changedSlots |= 1 << UInt64(currentSlot)
        }
    }

    /// Emits the frame's differences for every changed slot.
    /// - Parameter endPhase: `up` for a normal frame; `cancel` after a resync, when the end was not seen.
    /// - Returns: whether anything was emitted.
    mutating func flush(
        at time: EventTime, endPhase: TouchPhase, nextFinger: inout UInt32,
        diagnostics: inout DecoderDiagnostics, into output: inout some DecoderOutputSink
    ) -> Bool {
        var emitted = false
        var pending = changedSlots
        while pending != 0 {
            let index = pending.trailingZeroBitCount
            pending &= pending - 1
            let slot = slots[index]
            let slotNumber = Int32(index)
            if let touch = reported[index] {
                if slot.trackingID != touch.trackingID || slot.restarted {
                    // A lift carries the slot's final values; a replaced or resynced touch its last reported ones.
                    let contact = slot.trackingID < 0 && endPhase == .up ? slot.contact : touch.contact
                    output.finger(
                        FingerEvent(
                            phase: endPhase, finger: touch.finger, slot: slotNumber, time: time, contact: contact))
                    reported[index] = nil
                    liveCount -= 1
                    emitted = true
                } else if slot.contact.isPalm(majorAbove: palmMajor) {
                    output.finger(
                        FingerEvent(
                            phase: .cancel, finger: touch.finger, slot: slotNumber, time: time,
                            contact: Self.asPalm(slot.contact)))
                    reported[index] = nil
                    liveCount -= 1
                    ignoredTrackingID[index] = slot.trackingID
                    diagnostics.palmCancels += 1
                    if !slot.contact.isPalm { diagnostics.palmsBySize += 1 }
                    emitted = true
                } else if slot.contact != touch.contact {
                    output.finger(
                        FingerEvent(
                            phase: .move, finger: touch.finger, slot: slotNumber, time: time, contact: slot.contact))
                    reported[index]!.contact = slot.contact
                    emitted = true
                }
            } else if slot.trackingID < 0 && !slot.opened && !slot.restarted {
                diagnostics.orphanAxisUpdates += 1
            }

            if slot.trackingID < 0 {
                if slot.opened { diagnostics.zeroLengthTouches += 1 }
                ignoredTrackingID[index] = -1
            } else if reported[index] == nil {
                if ignoredTrackingID[index] == slot.trackingID && !slot.restarted {
                    // Still the palm that was cancelled or suppressed: it stays invisible until it lifts.
                } else if slot.contact.isPalm(majorAbove: palmMajor) {
                    ignoredTrackingID[index] = slot.trackingID
                    diagnostics.palmsSuppressed += 1
                    if !slot.contact.isPalm { diagnostics.palmsBySize += 1 }
                } else {
                    let finger = FingerID(nextFinger)
                    nextFinger &+= 1
                    output.finger(
                        FingerEvent(
                            phase: .down, finger: finger, slot: slotNumber, time: time, contact: slot.contact))
                    reported[index] = Reported(finger: finger, trackingID: slot.trackingID, contact: slot.contact)
                    liveCount += 1
                    ignoredTrackingID[index] = -1
                    emitted = true
                }
            }
            slots[index].restarted = false
            slots[index].opened = false
        }
        changedSlots = 0
        return emitted
    }

    /// Replaces the slot state with a snapshot taken after a drop and emits the difference; touches whose
    /// tracking id vanished or changed end in `cancel`, since their real end was lost.
    mutating func resync(
        to snapshot: DeviceSnapshot, at time: EventTime, nextFinger: inout UInt32,
        diagnostics: inout DecoderDiagnostics, into output: inout some DecoderOutputSink
    ) -> Bool {
        for index in slots.indices {
            let state = index < snapshot.slots.count ? snapshot.slots[index] : SlotSnapshot()
            slots[index] = Slot(trackingID: state.trackingID, contact: state.contact, restarted: false, opened: false)
        }
        changedSlots = slots.count == UInt64.bitWidth ? .max : (1 << UInt64(slots.count)) - 1
        let current = Int(snapshot.currentSlot)
        currentSlot = current >= 0 && current < slots.count ? current : -1
        return flush(
            at: time, endPhase: .cancel, nextFinger: &nextFinger, diagnostics: &diagnostics, into: &output)
    }

    /// Cancels every reported touch and forgets all tracking ids, so that nothing stays stuck and no later axis
    /// update can revive a touch. Used when the device goes away, and after a drop with no snapshot.
    mutating func cancelAll(at time: EventTime, into output: inout some DecoderOutputSink) -> Bool {
        var emitted = false
        for index in slots.indices {
            if let touch = reported[index] {
                output.finger(
                    FingerEvent(
                        phase: .cancel, finger: touch.finger, slot: Int32(index), time: time, contact: touch.contact
                    ))
                emitted = true
            }
            reported[index] = nil
            ignoredTrackingID[index] = -1
            slots[index].trackingID = -1
            slots[index].restarted = false
            slots[index].opened = false
        }
        liveCount = 0
        changedSlots = 0
        return emitted
    }

    /// Forgets the touch reported in `slot`: its tracking id is ignored until it ends.
    mutating func forget(slot index: Int, ignoring trackingID: Int32) {
        reported[index] = nil
        liveCount -= 1
        ignoredTrackingID[index] = trackingID
    }

    /// A cancel for a palm by size says so with the tool (`MT_TOOL_PALM`): clients read why, and the virtual
    /// touchscreen cancels it for the compositor as it does a palm by tool.
    static func asPalm(_ contact: ContactState) -> ContactState {
        var palm = contact
        palm.toolType = ToolType.palm
        return palm
    }
}
