/// Re-encodes the fingers touchd hands on to a virtual touchscreen (`VirtualTouchscreen`) as protocol B frames:
/// the inverse of the decoder, for one device. Pure: it returns the events; the adapter writes them to uinput.
///
/// The caller decides at each finger's down whether it is forwarded (`begin`); from then on every event of that
/// finger is followed (`follow`) until it lifts or is cancelled, which lifts it here too (tracking id -1): the
/// virtual device never keeps a finger the real one no longer has. `endFrame` closes a frame with the
/// single-touch emulation the kernel's input_mt gives real devices (`BTN_TOUCH` while any finger is down,
/// `ABS_X`/`ABS_Y` from the oldest finger) and `SYN_REPORT`; nothing at all for a frame that changed nothing.
///
/// Slots are its own (the lowest free), so are tracking ids (counting up, wrapping at 65535). Positions are the
/// contact's raw device units. Values equal to what the slot last carried are left out, as the kernel would drop
/// them anyway. A finger that finds no free slot (a protocol A device with more contacts than `contactSlots`) is
/// not forwarded and counted in `unforwarded`.
public struct TouchForwarder: Sendable {
    struct Slot: Sendable {
        var finger: FingerID
        /// Order of the down, for the single-touch emulation's "oldest finger".
        var sequence: UInt64
        var contact: ContactState
    }

    public let description: DeviceDescription
    private var slots: [Slot?]
    /// The tool type each slot last carried: the kernel keeps it across tracking ids, so a slot a taken finger left
    /// as `MT_TOOL_PALM` is set back to a finger at its next down.
    private var slotTools: [Int32]
    private var pending: [InputEvent] = []
    /// Frames closed and not yet handed out by `endFrame`.
    private var completed: [InputEvent] = []
    private var currentSlot: Int32 = 0
    private var nextTrackingID: Int32 = 0
    private var nextSequence: UInt64 = 0
    private var touching = false
    private var pointerX: Int32?
    private var pointerY: Int32?
    /// Axes the virtual device has, among the per-contact ones.
    private let contactAxes: [UInt16]
    /// Fingers that were to be forwarded but found no free slot.
    public private(set) var unforwarded = 0
    /// Fingers taken back (`take`): cancelled for the compositor.
    public private(set) var taken = 0
    private let hasToolType: Bool

    /// - Parameter description: the virtual device's (`VirtualTouchscreen.description(for:)`).
    public init(description: DeviceDescription) {
        self.description = description
        let count = Int(description.absInfo[AbsCode.mtSlot].map { $0.maximum + 1 } ?? 1)
        slots = Array(repeating: nil, count: max(1, min(count, DeviceDescription.maximumSlots)))
        slotTools = Array(repeating: ToolType.finger, count: slots.count)
        hasToolType = description.hasAxis(AbsCode.mtToolType)
        contactAxes = VirtualTouchscreen.contactAxes.filter { description.hasAxis($0) }
        pending.reserveCapacity(64)
    }

    /// Fingers down on the virtual device.
    public var liveFingerCount: Int { slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// Whether `finger` is down on the virtual device.
    public func isForwarding(_ finger: FingerID) -> Bool { slotIndex(of: finger) != nil }

    /// Forwards a finger that went down (`event.phase == .down`). Returns false when no slot was free.
    @discardableResult
    public mutating func begin(_ event: FingerEvent) -> Bool {
        guard slotIndex(of: event.finger) == nil else { return true }
        guard let index = slots.firstIndex(where: { $0 == nil }) else {
            unforwarded += 1
            return false
        }
        let trackingID = nextTrackingID
        nextTrackingID = nextTrackingID == VirtualTouchscreen.trackingIDLimit ? 0 : nextTrackingID + 1
        selectSlot(index, at: event.time)
        if hasToolType, event.contact.toolType == nil, slotTools[index] != ToolType.finger {
            // Before the tracking id: libinput reads the slot's tool when a touch begins, and one that begins as a
            // palm it never reports, even once the tool turns finger.
            append(event.time, EventType.abs, AbsCode.mtToolType, ToolType.finger)
            slotTools[index] = ToolType.finger
        }
        append(event.time, EventType.abs, AbsCode.mtTrackingID, trackingID)
        append(event.time, EventType.abs, AbsCode.mtPositionX, event.contact.x)
        append(event.time, EventType.abs, AbsCode.mtPositionY, event.contact.y)
        for code in contactAxes {
            if let value = Self.value(code, of: event.contact) { append(event.time, EventType.abs, code, value) }
        }
        if let tool = event.contact.toolType, hasToolType { slotTools[index] = tool }
        slots[index] = Slot(finger: event.finger, sequence: nextSequence, contact: event.contact)
        nextSequence += 1
        return true
    }

    /// A later event of a finger: moved, lifted or cancelled. Ignored for fingers not forwarded.
    public mutating func follow(_ event: FingerEvent) {
        guard let index = slotIndex(of: event.finger), var slot = slots[index] else { return }
        switch event.phase {
        case .down:
            return
        case .up, .cancel:
            if event.phase == .cancel, event.contact.isPalm, hasToolType, slotTools[index] != ToolType.palm {
                // A palm: libinput cancels the touch when its slot turns palm, where a lift alone is an up.
                selectSlot(index, at: event.time)
                append(event.time, EventType.abs, AbsCode.mtToolType, ToolType.palm)
                slotTools[index] = ToolType.palm
                closeFrame(at: event.time)
            }
            selectSlot(index, at: event.time)
            append(event.time, EventType.abs, AbsCode.mtTrackingID, -1)
            slots[index] = nil
        case .move:
            let old = slot.contact
            let new = event.contact
            if new.x != old.x || new.y != old.y { selectSlot(index, at: event.time) }
            if new.x != old.x { append(event.time, EventType.abs, AbsCode.mtPositionX, new.x) }
            if new.y != old.y { append(event.time, EventType.abs, AbsCode.mtPositionY, new.y) }
            for code in contactAxes {
                guard let value = Self.value(code, of: new), value != Self.value(code, of: old) else { continue }
                selectSlot(index, at: event.time)
                append(event.time, EventType.abs, code, value)
                if code == AbsCode.mtToolType { slotTools[index] = value }
            }
            slot.contact = new
            slots[index] = slot
        }
    }

    /// Closes the frame: the single-touch emulation and `SYN_REPORT`, with everything since the last frame (and any
    /// frame closed on the way, a palm's). Nil when nothing changed.
    public mutating func endFrame(at time: EventTime) -> [InputEvent]? {
        closeFrame(at: time)
        guard !completed.isEmpty else { return nil }
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }

    /// Moves what is pending, closed with the single-touch emulation and `SYN_REPORT`, to `completed`.
    private mutating func closeFrame(at time: EventTime) {
        guard !pending.isEmpty else { return }
        var oldest: Slot?
        for slot in slots {
            if let slot, slot.sequence < oldest?.sequence ?? .max { oldest = slot }
        }
        if (oldest != nil) != touching {
            touching = oldest != nil
            append(time, EventType.key, KeyCode.touch, touching ? 1 : 0)
        }
        if let oldest {
            if oldest.contact.x != pointerX { append(time, EventType.abs, AbsCode.x, oldest.contact.x) }
            if oldest.contact.y != pointerY { append(time, EventType.abs, AbsCode.y, oldest.contact.y) }
            pointerX = oldest.contact.x
            pointerY = oldest.contact.y
        }
        append(time, EventType.syn, SynCode.report, 0)
        if completed.isEmpty {
            swap(&completed, &pending)
        } else {
            completed.append(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Takes a forwarded finger back from the compositor: its slot turns `MT_TOOL_PALM` in one frame (libinput
    /// ≥ 1.15 sends `LIBINPUT_EVENT_TOUCH_CANCEL` for it, and nothing more of that touch), then is lifted in the
    /// next (what is pending goes out with the first). Nil for a finger not forwarded, or when the device has no
    /// `ABS_MT_TOOL_TYPE` to say it with.
    public mutating func take(_ finger: FingerID, at time: EventTime) -> [InputEvent]? {
        guard hasToolType, let index = slotIndex(of: finger) else { return nil }
        selectSlot(index, at: time)
        append(time, EventType.abs, AbsCode.mtToolType, ToolType.palm)
        slotTools[index] = ToolType.palm
        closeFrame(at: time)
        selectSlot(index, at: time)
        append(time, EventType.abs, AbsCode.mtTrackingID, -1)
        slots[index] = nil
        taken += 1
        return endFrame(at: time)
    }

    /// Lifts every forwarded finger and closes the frame (shutdown, or the device going away without its
    /// decoder's cancels). Nil when no finger was down.
    public mutating func liftAll(at time: EventTime) -> [InputEvent]? {
        for index in slots.indices where slots[index] != nil {
            selectSlot(index, at: time)
            append(time, EventType.abs, AbsCode.mtTrackingID, -1)
            slots[index] = nil
        }
        return endFrame(at: time)
    }

    private func slotIndex(of finger: FingerID) -> Int? {
        // A linear look over at most 64 slots: no dictionary, nothing allocated per event.
        for index in slots.indices where slots[index]?.finger == finger { return index }
        return nil
    }

    private mutating func selectSlot(_ index: Int, at time: EventTime) {
        let slot = Int32(index)
        // The kernel starts every device at slot 0 and drops a repeated ABS_MT_SLOT: so do we.
        guard slot != currentSlot else { return }
        append(time, EventType.abs, AbsCode.mtSlot, slot)
        currentSlot = slot
    }

    private mutating func append(_ time: EventTime, _ type: UInt16, _ code: UInt16, _ value: Int32) {
        pending.append(InputEvent(time: time, type: type, code: code, value: value))
    }

    static func value(_ code: UInt16, of contact: ContactState) -> Int32? {
        switch code {
        case AbsCode.mtPressure: contact.pressure
        case AbsCode.mtTouchMajor: contact.touchMajor
        case AbsCode.mtTouchMinor: contact.touchMinor
        case AbsCode.mtWidthMajor: contact.widthMajor
        case AbsCode.mtWidthMinor: contact.widthMinor
        case AbsCode.mtOrientation: contact.orientation
        case AbsCode.mtToolType: contact.toolType
        default: nil
        }
    }
}
