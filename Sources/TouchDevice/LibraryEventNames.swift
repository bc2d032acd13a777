import CEvdev
import CUdev

/// libevdev's own name tables and library handles. touchd keeps its own tables in the pure core; these let
/// tests check them against libevdev, and prove the libevdev/libudev link in every build.
public enum LibraryEventNames {
    /// `libevdev_event_type_get_name`
    public static func typeName(_ type: UInt16) -> String? {
        libevdev_event_type_get_name(UInt32(type)).map { String(cString: $0) }
    }

    /// `libevdev_event_code_get_name`
    public static func codeName(type: UInt16, code: UInt16) -> String? {
        libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) }
    }

    /// `libevdev_property_get_name`
    public static func propertyName(_ property: UInt16) -> String? {
        libevdev_property_get_name(UInt32(property)).map { String(cString: $0) }
    }
}

/// A libudev context, proving the library links and answers.
public enum UdevProbe {
    /// Whether `udev_new` returns a context (it does even without udevd running).
    public static func contextAvailable() -> Bool {
        guard let udev = udev_new() else { return false }
        udev_unref(udev)
        return true
    }
}
