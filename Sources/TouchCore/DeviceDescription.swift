/// The range and resolution of one absolute axis, as `struct input_absinfo` reports it.
public struct AbsInfo: Equatable, Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre (per radian for orientation); 0 when the device does not say.
    public var resolution: Int32
    /// The axis value when the description was taken.
    public var value: Int32

    public init(
        minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0, value: Int32 = 0
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
        self.value = value
    }
}

/// Bus, vendor, product and version, as `struct input_id`.
public struct DeviceID: Equatable, Hashable, Sendable {
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// How a device reports touches. Decided from its capabilities, as libinput and the kernel docs do.
public enum TouchProtocol: String, Sendable {
    /// Multitouch protocol B: slots and tracking ids (`ABS_MT_SLOT`).
    case slotted
    /// Multitouch protocol A: anonymous contacts, each ended by `SYN_MT_REPORT`.
    case contactReports
    /// `ABS_X`/`ABS_Y` with `BTN_TOUCH` and no multitouch axes: one finger.
    case singleTouch
}

/// What a device is and what it can send: the part of an evemu or libinput recording before the events, or
/// what the kernel answers to EVIOCGBIT/EVIOCGABS/EVIOCGPROP for a live device.
public struct DeviceDescription: Equatable, Sendable {
    public var name: String
    public var id: DeviceID
    /// `INPUT_PROP_*` values that are set.
    public var properties: Set<UInt16>
    /// Supported codes per event type (the EVIOCGBIT masks).
    public var codes: [UInt16: Set<UInt16>]
    /// Absolute axes by code.
    public var absInfo: [UInt16: AbsInfo]

    public init(
        name: String = "", id: DeviceID = DeviceID(), properties: Set<UInt16> = [],
        codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: AbsInfo] = [:]
    ) {
        self.name = name
        self.id = id
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
        for code in absInfo.keys { self.codes[EventType.abs, default: []].insert(code) }
    }

    public func supports(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }

    public func hasAxis(_ code: UInt16) -> Bool { absInfo[code] != nil }

    /// The most slots touchd keeps for one device. Android clamps at 32 and libinput's seat slots are a 32-bit
    /// mask; 64 leaves room for large panels while bounding memory against a bogus `ABS_MT_SLOT` maximum.
    public static let maximumSlots = 64

    /// Protocol B when the device has slots, protocol A when it has MT positions without slots, else single touch.
    public var touchProtocol: TouchProtocol {
        if hasAxis(AbsCode.mtSlot) { return .slotted }
        if hasAxis(AbsCode.mtPositionX) { return .contactReports }
        return .singleTouch
    }

    /// Number of slots (`ABS_MT_SLOT` maximum + 1), clamped to `maximumSlots`; 1 for devices without slots.
    public var slotCount: Int {
        guard let slot = absInfo[AbsCode.mtSlot] else { return 1 }
        return Int(max(1, min(Int64(slot.maximum) + 1, Int64(Self.maximumSlots))))
    }

    /// The axis that carries x positions for this device's protocol.
    public var xAxis: AbsInfo? { absInfo[touchProtocol == .singleTouch ? AbsCode.x : AbsCode.mtPositionX] }

    /// The axis that carries y positions for this device's protocol.
    public var yAxis: AbsInfo? { absInfo[touchProtocol == .singleTouch ? AbsCode.y : AbsCode.mtPositionY] }

    /// `INPUT_PROP_DIRECT`: the device is a touchscreen rather than a touchpad.
    public var isDirect: Bool { properties.contains(InputProperty.direct) }
}
