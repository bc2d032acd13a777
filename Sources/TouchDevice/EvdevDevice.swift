import CEvdev
import CShims
import TouchCore
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

/// An open /dev/input/eventN: described through libevdev (axes, name, properties), read directly, one read(2) a
/// wake-up (`EventReadBuffer`); non-blocking, timestamps on CLOCK_MONOTONIC, optional grab. After SYN_DROPPED it asks
/// the kernel for the slot state (`KernelTouchState`), which the decoder turns into the difference (its resync
/// path).
public final class EvdevDevice {
    public let node: String
    public let fd: Int32
    private let device: OpaquePointer
    public let description: DeviceDescription
    public private(set) var grabbed = false
    private let buffer = EventReadBuffer()

    public init(node: String, grab: Bool = false) throws(SystemError) {
        self.node = node
        fd = try Posix.openFile(node, flags: O_RDONLY | O_NONBLOCK)
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

    /// Reads what one read(2) gives into `events`. At a drop the events end with the `SYN_DROPPED`, what is still
    /// pending is discarded, and the result is the kernel's state now: it must reach the decoder after these events
    /// and before any read later. Before them, the decoder would have to give up on the fingers held through the
    /// drop (it cannot know they are down).
    public func read(into events: inout [InputEvent]) throws(DeviceReadError) -> DeviceSnapshot? {
        guard try buffer.read(fd, node: node, into: &events) == .dropped else { return nil }
        try buffer.drain(fd, node: node)
        do {
            return try KernelTouchState.query(fd, description: description).snapshot
        } catch {
            throw DeviceReadError(call: error.call, errno: error.errno, node: node)
        }
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
