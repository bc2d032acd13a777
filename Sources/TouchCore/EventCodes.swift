// Kernel constants from <linux/input-event-codes.h>, under Swift names. Each carries the C name in its doc so
// a grep for the kernel spelling finds it. Only the codes touchd acts on are named here; `EventNames` has the
// full name tables used for reading and printing.

/// Event types (`EV_*`).
public enum EventType {
    /// `EV_SYN`
    public static let syn: UInt16 = 0x00
    /// `EV_KEY`
    public static let key: UInt16 = 0x01
    /// `EV_REL`
    public static let rel: UInt16 = 0x02
    /// `EV_ABS`
    public static let abs: UInt16 = 0x03
    /// `EV_MSC`
    public static let msc: UInt16 = 0x04
    /// `EV_SW`
    public static let sw: UInt16 = 0x05
    /// `EV_LED`
    public static let led: UInt16 = 0x11
    /// `EV_SND`
    public static let snd: UInt16 = 0x12
    /// `EV_REP`
    public static let rep: UInt16 = 0x14
    /// `EV_FF`
    public static let ff: UInt16 = 0x15
    /// `EV_MAX`
    public static let max: UInt16 = 0x1f
}

/// Synchronization codes (`SYN_*`).
public enum SynCode {
    /// `SYN_REPORT`: ends a frame.
    public static let report: UInt16 = 0
    /// `SYN_CONFIG`
    public static let config: UInt16 = 1
    /// `SYN_MT_REPORT`: ends one contact in multitouch protocol A.
    public static let mtReport: UInt16 = 2
    /// `SYN_DROPPED`: the kernel's buffer overflowed; events were lost.
    public static let dropped: UInt16 = 3
}

/// Absolute axes (`ABS_*`).
public enum AbsCode {
    /// `ABS_X`
    public static let x: UInt16 = 0x00
    /// `ABS_Y`
    public static let y: UInt16 = 0x01
    /// `ABS_PRESSURE`
    public static let pressure: UInt16 = 0x18
    /// `ABS_DISTANCE`
    public static let distance: UInt16 = 0x19
    /// `ABS_MT_SLOT`
    public static let mtSlot: UInt16 = 0x2f
    /// `ABS_MT_TOUCH_MAJOR`
    public static let mtTouchMajor: UInt16 = 0x30
    /// `ABS_MT_TOUCH_MINOR`
    public static let mtTouchMinor: UInt16 = 0x31
    /// `ABS_MT_WIDTH_MAJOR`
    public static let mtWidthMajor: UInt16 = 0x32
    /// `ABS_MT_WIDTH_MINOR`
    public static let mtWidthMinor: UInt16 = 0x33
    /// `ABS_MT_ORIENTATION`
    public static let mtOrientation: UInt16 = 0x34
    /// `ABS_MT_POSITION_X`
    public static let mtPositionX: UInt16 = 0x35
    /// `ABS_MT_POSITION_Y`
    public static let mtPositionY: UInt16 = 0x36
    /// `ABS_MT_TOOL_TYPE`
    public static let mtToolType: UInt16 = 0x37
    /// `ABS_MT_BLOB_ID`
    public static let mtBlobID: UInt16 = 0x38
    /// `ABS_MT_TRACKING_ID`
    public static let mtTrackingID: UInt16 = 0x39
    /// `ABS_MT_PRESSURE`
    public static let mtPressure: UInt16 = 0x3a
    /// `ABS_MT_DISTANCE`
    public static let mtDistance: UInt16 = 0x3b
    /// `ABS_MAX`
    public static let max: UInt16 = 0x3f
}

/// Keys and buttons (`KEY_*`, `BTN_*`) that matter to touch.
public enum KeyCode {
    /// `BTN_TOOL_PEN`
    public static let toolPen: UInt16 = 0x140
    /// `BTN_TOOL_FINGER`
    public static let toolFinger: UInt16 = 0x145
    /// `BTN_TOUCH`
    public static let touch: UInt16 = 0x14a
    /// `KEY_MAX`
    public static let max: UInt16 = 0x2ff
}

/// `ABS_MT_TOOL_TYPE` values (`MT_TOOL_*`).
public enum ToolType {
    /// `MT_TOOL_FINGER`
    public static let finger: Int32 = 0
    /// `MT_TOOL_PEN`
    public static let pen: Int32 = 1
    /// `MT_TOOL_PALM`
    public static let palm: Int32 = 2
    /// `MT_TOOL_DIAL`
    public static let dial: Int32 = 0x0a

    /// The lower-case name used in touchd's output (`finger`, `pen`, `palm`, `dial`), or the number.
    public static func name(_ value: Int32) -> String {
        switch value {
        case finger: "finger"
        case pen: "pen"
        case palm: "palm"
        case dial: "dial"
        default: String(value)
        }
    }
}

/// Input properties (`INPUT_PROP_*`).
public enum InputProperty {
    /// `INPUT_PROP_POINTER`
    public static let pointer: UInt16 = 0x00
    /// `INPUT_PROP_DIRECT`: a touchscreen, as opposed to a touchpad.
    public static let direct: UInt16 = 0x01
    /// `INPUT_PROP_BUTTONPAD`
    public static let buttonpad: UInt16 = 0x02
    /// `INPUT_PROP_MAX`
    public static let max: UInt16 = 0x1f
}

/// The largest code the kernel defines per event type (`*_MAX`), for validating input from files.
public enum EventCodeLimits {
    public static func maximumCode(forType type: UInt16) -> UInt16? {
        switch type {
        case EventType.syn: 0x0f
        case EventType.key: KeyCode.max
        case EventType.rel: 0x0f
        case EventType.abs: AbsCode.max
        case EventType.msc: 0x07
        case EventType.sw: 0x10
        case EventType.led: 0x0f
        case EventType.snd: 0x07
        case EventType.rep: 0x01
        case EventType.ff: 0x7f
        case 0x16, 0x17: 0xff  // EV_PWR, EV_FF_STATUS
        default: nil
        }
    }

    public static func isKnown(type: UInt16, code: UInt16) -> Bool {
        guard let maximum = maximumCode(forType: type) else { return false }
        return code <= maximum
    }
}
