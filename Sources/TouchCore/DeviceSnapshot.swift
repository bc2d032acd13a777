/// The state of one slot as the kernel holds it (EVIOCGMTSLOTS per axis, or libevdev's
/// `libevdev_get_slot_value` after a sync).
public struct SlotSnapshot: Equatable, Sendable {
    public var trackingID: Int32
    public var contact: ContactState

    public init(trackingID: Int32 = -1, contact: ContactState = ContactState()) {
        self.trackingID = trackingID
        self.contact = contact
    }
}

/// Full touch state of a device, taken after `SYN_DROPPED` to resynchronise the decoder.
///
/// For single-touch devices slot 0 stands for the one contact: tracking id >= 0 when `BTN_TOUCH` is down.
public struct DeviceSnapshot: Equatable, Sendable {
    public var slots: [SlotSnapshot]
    /// The slot the next axis event without `ABS_MT_SLOT` addresses.
    public var currentSlot: Int32

    public init(slots: [SlotSnapshot], currentSlot: Int32 = 0) {
        self.slots = slots
        self.currentSlot = currentSlot
    }
}
