/// The description of the virtual touchscreen touchd creates (through /dev/uinput) beside a real one it grabs, to
/// hand the compositor the fingers no region claims. Pure: the I/O layer (TouchDevice's `UinputTouchscreen`)
/// builds the device from this value, and the engine's `TouchForwarder` writes frames that fit it.
///
/// Always protocol B with `BTN_TOUCH` and single-touch `ABS_X`/`ABS_Y`, whatever the real device speaks, so every
/// consumer (libinput, a compositor's own evdev code) reads it the same way:
/// - the name is the real one with `nameSuffix` (cut so it fits the kernel's 80 bytes); the bus, vendor, product
///   and version are the real ones, so hwdb and quirks keyed on them still apply;
/// - its properties are the real ones and always `INPUT_PROP_DIRECT`;
/// - `ABS_MT_POSITION_X/Y` have the real position axes' range and resolution (protocol B and A: the MT axes;
///   single touch: `ABS_X`/`ABS_Y`), and `ABS_X`/`ABS_Y` the same, as they carry the oldest finger's raw position;
/// - the per-contact axes the real device has (`ABS_MT_PRESSURE`, touch and width major/minor, orientation, tool
///   type) keep their ranges;
/// - `ABS_MT_TOOL_TYPE` always (0...`MT_TOOL_MAX` when the real device has none): a finger a gesture takes back
///   turns `MT_TOOL_PALM`, which libinput turns into a touch cancel;
/// - slots: the real device's for protocol B, `contactSlots` for protocol A, one for single touch;
/// - every fuzz is 0: the kernel already applied the real device's fuzz to what touchd read; a second pass on
///   the virtual device would move positions away from the real device's.
public enum VirtualTouchscreen {
    /// Appended to the real device's name; also how touchd recognises its own devices and never reads them.
    public static let nameSuffix = " (touchd)"
    /// The kernel's limit on a uinput device name (UINPUT_MAX_NAME_SIZE), with its terminating NUL.
    public static let maximumNameBytes = 79
    /// Slots for a protocol A device, whose contacts are anonymous (libinput's seat has at most this many too).
    public static let contactSlots = 10
    /// Tracking ids count in 0...65535 and wrap, as the kernel's input_mt does.
    public static let trackingIDLimit: Int32 = 65535

    /// `MT_TOOL_MAX` (the kernel's highest tool type, 0x0f): the range given to a tool type the real device lacks.
    static let toolTypeMaximum: Int32 = 0x0f

    /// Per-contact axes copied from the real device and forwarded from each contact, in the order they are written.
    static let contactAxes: [UInt16] = [
        AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtTouchMinor, AbsCode.mtWidthMajor, AbsCode.mtWidthMinor,
        AbsCode.mtOrientation, AbsCode.mtToolType,
    ]

    /// Whether a device is one of touchd's own virtual touchscreens (by the name's suffix).
    public static func isVirtual(name: String) -> Bool { name.hasSuffix(nameSuffix) }

    /// The virtual device for `real`; nil when `real` has no position axes to copy.
    public static func description(for real: DeviceDescription) -> DeviceDescription? {
        guard let xAxis = real.xAxis, let yAxis = real.yAxis else { return nil }
        let x = withoutFuzz(xAxis)
        let y = withoutFuzz(yAxis)
        let slots: Int
        switch real.touchProtocol {
        case .slotted: slots = real.slotCount
        case .contactReports: slots = contactSlots
        case .singleTouch: slots = 1
        }
        var axes: [UInt16: AbsInfo] = [
            AbsCode.x: x, AbsCode.y: y, AbsCode.mtPositionX: x, AbsCode.mtPositionY: y,
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: Int32(slots - 1)),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: trackingIDLimit),
        ]
        for code in contactAxes {
            if let info = real.absInfo[code] {
                axes[code] = withoutFuzz(info)
            } else if code == AbsCode.mtPressure, real.touchProtocol == .singleTouch,
                let pressure = real.absInfo[AbsCode.pressure]
            {
                // A single-touch device's pressure arrives in the contact like an MT pressure.
                axes[code] = withoutFuzz(pressure)
            }
        }
        if axes[AbsCode.mtToolType] == nil {
            axes[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: toolTypeMaximum)
        }
        var properties = real.properties
        properties.insert(InputProperty.direct)
        return DeviceDescription(
            name: name(for: real.name), id: real.id, properties: properties,
            codes: [EventType.syn: [SynCode.report], EventType.key: [KeyCode.touch]], absInfo: axes)
    }

    /// The real name with the suffix, the real part cut at a character boundary so the whole fits the kernel.
    static func name(for realName: String) -> String {
        let room = maximumNameBytes - nameSuffix.utf8.count
        var kept = ""
        var bytes = 0
        for character in realName {
            let size = character.utf8.count
            guard bytes + size <= room else { break }
            kept.append(character)
            bytes += size
        }
        return kept + nameSuffix
    }

    private static func withoutFuzz(_ info: AbsInfo) -> AbsInfo {
        AbsInfo(minimum: info.minimum, maximum: info.maximum, flat: info.flat, resolution: info.resolution)
    }
}
