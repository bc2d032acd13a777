import TouchCore

/// Whether touchd treats a device as a touchscreen, and why (shown by `touchd list-devices`).
public enum TouchscreenVerdict: Equatable, Sendable {
    /// udev tagged it ID_INPUT_TOUCHSCREEN=1.
    case udevProperty
    /// No udev tag (no udevd, or an unusual device), but it has touch axes and INPUT_PROP_DIRECT.
    case capabilities
    /// The configuration pins it.
    case configPin
    case no(reason: String)

    public var isTouchscreen: Bool {
        if case .no = self { return false }
        return true
    }

    public var explanation: String {
        switch self {
        case .udevProperty: "udev: ID_INPUT_TOUCHSCREEN=1"
        case .capabilities: "capabilities: touch axes and INPUT_PROP_DIRECT"
        case .configPin: "pinned by the configuration"
        case .no(let reason): reason
        }
    }
}

public enum TouchscreenClassifier {
    /// - Parameters:
    ///   - udevProperties: the device's udev properties (empty when udevd has not processed it).
    ///   - pinned: the configuration's `use` for this device (true pins, false ignores), if any.
    public static func classify(_ description: DeviceDescription, udevProperties: [String: String], pinned: Bool?)
        -> TouchscreenVerdict
    {
        if VirtualTouchscreen.isVirtual(name: description.name) {
            // Its fingers came from a device touchd reads already: reading them again would loop.
            return .no(reason: "touchd's own virtual touchscreen")
        }
        if pinned == false { return .no(reason: "ignored by the configuration") }
        let hasMT = description.hasAxis(AbsCode.mtPositionX) && description.hasAxis(AbsCode.mtPositionY)
        let hasSingle =
            description.hasAxis(AbsCode.x) && description.hasAxis(AbsCode.y)
            && description.supports(type: EventType.key, code: KeyCode.touch)
        if pinned == true {
            return hasMT || hasSingle
                ? .configPin : .no(reason: "pinned by the configuration, but it has no touch axes")
        }
        if udevProperties["ID_INPUT_TOUCHSCREEN"] == "1" { return .udevProperty }
        if udevProperties["ID_INPUT_TOUCHPAD"] == "1" { return .no(reason: "udev: a touchpad (ID_INPUT_TOUCHPAD=1)") }
        guard hasMT || hasSingle else {
            return .no(reason: "no touch axes (ABS_MT_POSITION_X/Y, or ABS_X/Y with BTN_TOUCH)")
        }
        guard description.isDirect else { return .no(reason: "touch axes but no INPUT_PROP_DIRECT (a touchpad?)") }
        return .capabilities
    }
}
