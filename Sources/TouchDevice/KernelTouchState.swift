import TouchCore

/// The touch state the kernel holds for a device, as its ioctls report it: what the decoder resynchronises to after
/// `SYN_DROPPED` (libevdev's sync_mt_state and sync_abs_state, without the events libevdev makes of it).
public enum KernelTouchState: Equatable, Sendable {
    /// Protocol B: each MT axis's value in every slot (EVIOCGMTSLOTS, one call an axis, the tracking id
    /// among them) and the slot the next event addresses (EVIOCGABS(ABS_MT_SLOT)).
    case slots(values: [UInt16: [Int32]], current: Int32)
    /// No slots (single touch, and protocol A, whose contacts the kernel keeps no state of): ABS_X, ABS_Y and
    /// ABS_PRESSURE (EVIOCGABS) and BTN_TOUCH (EVIOCGKEY).
    case single(x: Int32, y: Int32, pressure: Int32?, touching: Bool)

    /// The MT axes a contact carries, besides the tracking id, in the order `ContactState` has them.
    public static let contactAxes: [UInt16] = [
        AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtTouchMinor,
        AbsCode.mtWidthMajor, AbsCode.mtWidthMinor, AbsCode.mtOrientation, AbsCode.mtToolType, AbsCode.mtDistance,
    ]

    /// The MT axes to ask the kernel for on this device: the tracking id and the contact axes it has.
    public static func slotAxes(of description: DeviceDescription) -> [UInt16] {
        let codes = description.codes[EventType.abs] ?? []
        return [AbsCode.mtTrackingID] + contactAxes.filter { codes.contains($0) }
    }

    /// Whether the kernel keeps slots for the device (it has ABS_MT_SLOT).
    public static func hasSlots(_ description: DeviceDescription) -> Bool {
        description.codes[EventType.abs]?.contains(AbsCode.mtSlot) ?? false
    }

    /// The decoder's resync input. A slot no tracking id array covers is empty (-1); an axis the kernel did not
    /// report for a slot keeps `ContactState`'s default.
    public var snapshot: DeviceSnapshot {
        switch self {
        case .single(let x, let y, let pressure, let touching):
            var contact = ContactState(x: x, y: y)
            if let pressure { contact.pressure = pressure }
            return DeviceSnapshot(slots: [SlotSnapshot(trackingID: touching ? 0 : -1, contact: contact)])
        case .slots(let values, let current):
            let trackingIDs = values[AbsCode.mtTrackingID] ?? []
            var slots: [SlotSnapshot] = []
            slots.reserveCapacity(min(trackingIDs.count, DeviceDescription.maximumSlots))
            for (slot, trackingID) in trackingIDs.prefix(DeviceDescription.maximumSlots).enumerated() {
                var contact = ContactState()
                for code in Self.contactAxes {
                    if let axis = values[code], slot < axis.count { _ = contact.setMultitouchAxis(code, axis[slot]) }
                }
                slots.append(SlotSnapshot(trackingID: trackingID, contact: contact))
            }
            return DeviceSnapshot(slots: slots, currentSlot: current)
        }
    }
}
