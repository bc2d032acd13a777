import CEvdev
import CShims
import TouchCore
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

/// An open /dev/input/eventN read through libevdev: non-blocking, timestamps on CLOCK_MONOTONIC, optional grab.
/// After SYN_DROPPED it drains libevdev's sync events and hands back the slot state libevdev keeps, which the
/// decoder turns into the difference (its resync path).
public final class EvdevDevice {
    public let node: String
    public let fd: Int32
    private let device: OpaquePointer
    public let description: DeviceDescription
    public private(set) var grabbed = false

    public init(node: String, grab: Bool = false) throws(SystemError) {
        self.node = node
        fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", subject: node) }
        var handle: OpaquePointer?
        let status = libevdev_new_from_fd(fd, &handle)
        guard status == 0, let handle else {
            Posix.close(fd)
            throw SystemError("libevdev_new_from_fd", errno: -status, subject: node)
        }
        device = handle
        description = Self.describe(handle)
        _ = libevdev_set_clock_id(handle, touchd_clock_monotonic_id())
        if grab {
            let result = libevdev_grab(handle, LIBEVDEV_GRAB)
            if result != 0 {
                libevdev_free(handle)
                Posix.close(fd)
                throw SystemError("EVIOCGRAB", errno: -result, subject: node)
            }
            grabbed = true
        }
    }

    deinit {
        if grabbed { _ = libevdev_grab(device, LIBEVDEV_UNGRAB) }
        libevdev_free(device)
        Posix.close(fd)
    }

    /// Takes the device for touchd alone (EVIOCGRAB): nobody else, not the compositor, sees its events.
    public func grab() throws(SystemError) {
        guard !grabbed else { return }
        let result = libevdev_grab(device, LIBEVDEV_GRAB)
        guard result == 0 else { throw SystemError("EVIOCGRAB", errno: -result, subject: node) }
        grabbed = true
    }

    public enum ReadResult {
        case events
        /// A drop was resolved: hand this state to the decoder after the events read, and read on for what came
        /// after it.
        case resync(DeviceSnapshot)
        /// ENODEV or another failure: the device is gone.
        case gone(SystemError)
    }

    /// Reads everything pending into `events`, or up to a drop: then the events end with the `SYN_DROPPED`, the
    /// result is the state libevdev resynchronised to, and the events after it are the next call's. They must
    /// reach the decoder after that state: before it, the decoder would have to give up on the fingers held
    /// through the drop (it cannot know they are down).
    public func read(into events: inout [InputEvent]) -> ReadResult {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let status = libevdev_next_event(device, flags, &event)
            if status == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    // Sync events drained: libevdev's state is the device's state at the end of the drop.
                    return .resync(snapshot())
                }
                break
            }
            if status < 0 { return .gone(SystemError("libevdev_next_event", errno: -status, subject: node)) }
            if status == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                    // The SYN_DROPPED itself: let the decoder discard the broken frame.
                    events.append(Self.convert(event))
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                }
                continue  // the synthesized delta events are replaced by the snapshot
            }
            events.append(Self.convert(event))
        }
        return .events
    }

    /// The slot state libevdev tracks (libevdev_get_slot_value per axis).
    public func snapshot() -> DeviceSnapshot {
        let count = max(1, Int(libevdev_get_num_slots(device)))
        if libevdev_has_event_code(device, UInt32(EventType.abs), UInt32(AbsCode.mtSlot)) == 0 {
            // Single touch: slot 0 stands for BTN_TOUCH and ABS_X/ABS_Y.
            var contact = ContactState(
                x: libevdev_get_event_value(device, UInt32(EventType.abs), UInt32(AbsCode.x)),
                y: libevdev_get_event_value(device, UInt32(EventType.abs), UInt32(AbsCode.y)))
            if libevdev_has_event_code(device, UInt32(EventType.abs), UInt32(AbsCode.pressure)) != 0 {
                contact.pressure = libevdev_get_event_value(device, UInt32(EventType.abs), UInt32(AbsCode.pressure))
            }
            let down = libevdev_get_event_value(device, UInt32(EventType.key), UInt32(KeyCode.touch)) != 0
            return DeviceSnapshot(slots: [SlotSnapshot(trackingID: down ? 0 : -1, contact: contact)])
        }
        var slots: [SlotSnapshot] = []
        for slot in 0..<min(count, DeviceDescription.maximumSlots) {
            var contact = ContactState()
            for code in [
                AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtPressure, AbsCode.mtTouchMajor,
                AbsCode.mtTouchMinor,
                AbsCode.mtWidthMajor, AbsCode.mtWidthMinor, AbsCode.mtOrientation, AbsCode.mtToolType,
                AbsCode.mtDistance,
            ]
            where libevdev_has_event_code(device, UInt32(EventType.abs), UInt32(code)) != 0 {
                contact.setMultitouchAxis(code, libevdev_get_slot_value(device, UInt32(slot), UInt32(code)))
            }
            let id = libevdev_get_slot_value(device, UInt32(slot), UInt32(AbsCode.mtTrackingID))
            slots.append(SlotSnapshot(trackingID: id, contact: contact))
        }
        return DeviceSnapshot(slots: slots, currentSlot: libevdev_get_current_slot(device))
    }

    static func convert(_ event: input_event) -> InputEvent {
        InputEvent(
            time: EventTime(seconds: Int64(event.time.tv_sec), microseconds: Int64(event.time.tv_usec)),
            type: event.type, code: event.code, value: event.value)
    }

    /// The device's description as libevdev reports it (EVIOCGBIT, EVIOCGABS, EVIOCGPROP).
    static func describe(_ device: OpaquePointer) -> DeviceDescription {
        var description = DeviceDescription(
            name: libevdev_get_name(device).map { String(cString: $0) } ?? "",
            id: DeviceID(
                bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
                vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
                product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
                version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device))))
        for property in 0...InputProperty.max where libevdev_has_property(device, UInt32(property)) != 0 {
            description.properties.insert(property)
        }
        for type in UInt16(1)...EventType.max where libevdev_has_event_type(device, UInt32(type)) != 0 {
            guard let maximum = EventCodeLimits.maximumCode(forType: type) else { continue }
            var codes: Set<UInt16> = []
            for code in 0...maximum where libevdev_has_event_code(device, UInt32(type), UInt32(code)) != 0 {
                codes.insert(code)
            }
            description.codes[type] = codes
        }
        for code in description.codes[EventType.abs] ?? [] {
            guard let info = libevdev_get_abs_info(device, UInt32(code)) else { continue }
            description.absInfo[code] = AbsInfo(
                minimum: info.pointee.minimum, maximum: info.pointee.maximum, fuzz: info.pointee.fuzz,
                flat: info.pointee.flat, resolution: info.pointee.resolution, value: info.pointee.value)
        }
        return description
    }
}
