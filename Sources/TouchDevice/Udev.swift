import CUdev
import FoundationEssentials
import Glibc
import TouchPosix

/// One input event node as libudev sees it.
public struct UdevInputDevice: Equatable, Sendable {
    public var node: String
    public var sysname: String
    public var properties: [String: String]
    /// udevd has processed it (without udevd, properties such as ID_INPUT_* are missing).
    public var initialized: Bool
}

/// libudev: enumeration of input devices and a hotplug monitor.
public final class Udev {
    private let context: OpaquePointer

    public init() throws(SystemError) {
        guard let context = udev_new() else { throw SystemError("udev_new", errno: ENOMEM) }
        self.context = context
    }

    deinit { udev_unref(context) }

    /// Whether udevd runs (its control socket exists). Without it the monitor listens to the kernel directly.
    public static var udevdRunning: Bool { FileManager.default.fileExists(atPath: "/run/udev/control") }

    /// Every /dev/input/event* node.
    public func inputDevices() -> [UdevInputDevice] {
        guard let enumerate = udev_enumerate_new(context) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_add_match_sysname(enumerate, "event*")
        udev_enumerate_scan_devices(enumerate)
        var result: [UdevInputDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let path = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(context, path)
            {
                if let info = Self.info(device) { result.append(info) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return result.sorted { Self.number($0.node) < Self.number($1.node) }
    }

    static func info(_ device: OpaquePointer) -> UdevInputDevice? {
        guard let nodePointer = udev_device_get_devnode(device) else { return nil }
        let node = String(cString: nodePointer)
        guard node.hasPrefix("/dev/input/event") else { return nil }
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                properties[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        return UdevInputDevice(
            node: node, sysname: udev_device_get_sysname(device).map { String(cString: $0) } ?? "",
            properties: properties, initialized: udev_device_get_is_initialized(device) != 0)
    }

    static func number(_ node: String) -> Int { Int(node.drop { !$0.isNumber }) ?? Int.max }

    /// A netlink monitor for input devices and DRM connectors: from udevd when it runs (properties included), else
    /// from the kernel.
    public final class Monitor {
        private let monitor: OpaquePointer
        public let fd: Int32

        public enum Change: Equatable, Sendable {
            case added(UdevInputDevice)
            case removed(node: String)
            /// A DRM device changed (a monitor plugged in or out: the kernel's hotplug `change` event on the card).
            case displaysChanged
        }

        public init(udev: Udev) throws(SystemError) {
            let source = Udev.udevdRunning ? "udev" : "kernel"
            guard let monitor = udev_monitor_new_from_netlink(udev.context, source) else {
                throw SystemError("udev_monitor_new_from_netlink", errno: EPROTONOSUPPORT, subject: source)
            }
            udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
            udev_monitor_filter_add_match_subsystem_devtype(monitor, "drm", nil)
            guard udev_monitor_enable_receiving(monitor) == 0 else {
                udev_monitor_unref(monitor)
                throw SystemError("udev_monitor_enable_receiving")
            }
            self.monitor = monitor
            fd = udev_monitor_get_fd(monitor)
            try? Posix.setNonBlocking(fd)
        }

        deinit { udev_monitor_unref(monitor) }

        /// Reads every pending change for event nodes, and one `displaysChanged` for any number of DRM events.
        public func changes() -> [Change] {
            var result: [Change] = []
            while let device = udev_monitor_receive_device(monitor) {
                defer { udev_device_unref(device) }
                let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
                if udev_device_get_subsystem(device).map({ String(cString: $0) }) == "drm" {
                    if !result.contains(.displaysChanged) { result.append(.displaysChanged) }
                } else if action == "remove", let node = udev_device_get_devnode(device).map({ String(cString: $0) }),
                    node.hasPrefix("/dev/input/event")
                {
                    result.append(.removed(node: node))
                } else if action == "add", let info = Udev.info(device) {
                    result.append(.added(info))
                }
            }
            return result
        }
    }
}
