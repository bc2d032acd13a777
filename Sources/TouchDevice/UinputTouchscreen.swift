import CEvdev
import TouchCore
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

/// A virtual touchscreen made through /dev/uinput with libevdev's uinput API, from a description
/// (`VirtualTouchscreen.description(for:)`): its name, id, properties, key and axis codes with each axis's range,
/// fuzz, flat and resolution. Frames written to it reach every reader of its /dev/input/eventN node (the
/// compositor's libinput) as they would from hardware. The device goes away when this object does.
public final class UinputTouchscreen {
    public let description: DeviceDescription
    /// /dev/input/eventN, as libevdev finds it in sysfs; nil if it could not tell.
    public let node: String?
    private let device: OpaquePointer

    /// - Throws: `SystemError` from `libevdev_uinput_create_from_device` (EACCES: no write access to /dev/uinput;
    ///   ENOENT: no uinput in the kernel).
    public init(description: DeviceDescription) throws(SystemError) {
        guard let template = libevdev_new() else { throw SystemError("libevdev_new", errno: ENOMEM) }
        // The uinput device is a copy: the template is not needed once it exists.
        defer { libevdev_free(template) }
        libevdev_set_name(template, description.name)
        libevdev_set_id_bustype(template, Int32(description.id.bustype))
        libevdev_set_id_vendor(template, Int32(description.id.vendor))
        libevdev_set_id_product(template, Int32(description.id.product))
        libevdev_set_id_version(template, Int32(description.id.version))
        for property in description.properties.sorted() { libevdev_enable_property(template, UInt32(property)) }
        for (type, codes) in description.codes.sorted(by: { $0.key < $1.key }) where type != EventType.abs {
            libevdev_enable_event_type(template, UInt32(type))
            for code in codes.sorted() { libevdev_enable_event_code(template, UInt32(type), UInt32(code), nil) }
        }
        for (code, info) in description.absInfo.sorted(by: { $0.key < $1.key }) {
            var abs = input_absinfo(
                value: info.value, minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat,
                resolution: info.resolution)
            libevdev_enable_event_code(template, UInt32(EventType.abs), UInt32(code), &abs)
        }
        var handle: OpaquePointer?
        let status = libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &handle)
        guard status == 0, let handle else {
            throw SystemError("libevdev_uinput_create_from_device", errno: -status, subject: "/dev/uinput")
        }
        device = handle
        self.description = description
        node = libevdev_uinput_get_devnode(handle).map { String(cString: $0) }
    }

    deinit { libevdev_uinput_destroy(device) }

    /// Writes events (whole frames, each ending in SYN_REPORT) in one `write` to the uinput descriptor: the kernel
    /// takes any number of `input_event`s a call and stamps them itself, as `libevdev_uinput_write_event` (one call
    /// an event) would have them, so a frame of ten fingers costs one system call, not forty.
    public func write(_ events: [InputEvent]) throws(SystemError) {
        outgoing.removeAll(keepingCapacity: true)
        for event in events {
            outgoing.append(input_event(time: timeval(), type: event.type, code: event.code, value: event.value))
        }
        let fd = libevdev_uinput_get_fd(device)
        do {
            try outgoing.withUnsafeBytes { raw in Result { () throws(SystemError) in try Posix.writeAll(fd, raw) } }
                .get()
        } catch {
            throw SystemError("write", errno: error.errno, subject: node ?? description.name)
        }
    }

    /// The frame being written, kept to write the next without allocating.
    private var outgoing: [input_event] = []
}
