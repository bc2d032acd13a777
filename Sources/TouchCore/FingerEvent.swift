/// Identity of one touch for its whole life, from down to up or cancel. Allocated from a counter that never
/// repeats within a decoder, so an id is never reused while its touch (or any other) is live.
public struct FingerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (lhs: FingerID, rhs: FingerID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// One finger anywhere in touchd: the index of its device and its id from that device's decoder. The dispatcher,
/// the gesture recognizers and the fan-out's coalescing all know a finger by this one key.
public struct FingerKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The device index in the high 32 bits, the finger id in the low: one integer to hash and to order by.
    public let rawValue: UInt64

    public init(device: UInt16, finger: FingerID) { rawValue = UInt64(device) << 32 | UInt64(finger.rawValue) }
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public var device: UInt16 { UInt16(truncatingIfNeeded: rawValue >> 32) }
    public var finger: FingerID { FingerID(UInt32(truncatingIfNeeded: rawValue)) }

    public static func < (lhs: FingerKey, rhs: FingerKey) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "\(device)/\(finger)" }
}

/// What happened to a finger in a frame.
public enum TouchPhase: String, Sendable, CaseIterable {
    case down, move, up
    /// The touch ended without a proper lift: it turned into a palm, its device went away, or events were lost.
    /// Consumers must undo whatever the touch started.
    case cancel

    /// Hashes the case, not its raw string: the default for a `String` enum hashed the name's bytes, and a count
    /// per phase (replay's summary) looked one up for every finger event.
    public func hash(into hasher: inout Hasher) {
        let index: UInt8
        switch self {
        case .down: index = 0
        case .move: index = 1
        case .up: index = 2
        case .cancel: index = 3
        }
        hasher.combine(index)
    }
}

/// Everything a device reports about one contact, in device units. Optional attributes are nil until the
/// device reports them.
public struct ContactState: Equatable, Hashable, Sendable {
    public var x: Int32 = 0
    public var y: Int32 = 0
    // The optional attributes stored as plain values (zero when absent, so the derived equality and hash hold) with
    // a mask of those reported: eight `Int32?` left spare bits in their flags, which `DispatchEvent` (a touch
    // carries a contact) then kept its case in, so that making, switching on and copying any event went through
    // outlined code that set or cleared those bits.
    @usableFromInline var pressureValue: Int32 = 0
    @usableFromInline var touchMajorValue: Int32 = 0
    @usableFromInline var touchMinorValue: Int32 = 0
    @usableFromInline var widthMajorValue: Int32 = 0
    @usableFromInline var widthMinorValue: Int32 = 0
    @usableFromInline var orientationValue: Int32 = 0
    @usableFromInline var toolTypeValue: Int32 = 0
    @usableFromInline var distanceValue: Int32 = 0
    /// One bit an attribute (`Reported`): set when the device reported it.
    @usableFromInline var reported: UInt8 = 0

    public init(x: Int32 = 0, y: Int32 = 0) {
        self.x = x
        self.y = y
    }

    @usableFromInline
    enum Reported {
        @usableFromInline static let pressure: UInt8 = 1 << 0
        @usableFromInline static let touchMajor: UInt8 = 1 << 1
        @usableFromInline static let touchMinor: UInt8 = 1 << 2
        @usableFromInline static let widthMajor: UInt8 = 1 << 3
        @usableFromInline static let widthMinor: UInt8 = 1 << 4
        @usableFromInline static let orientation: UInt8 = 1 << 5
        @usableFromInline static let toolType: UInt8 = 1 << 6
        @usableFromInline static let distance: UInt8 = 1 << 7
    }

    @inlinable @inline(__always)
    func attribute(_ value: Int32, _ bit: UInt8) -> Int32? { reported & bit != 0 ? value : nil }

    @inlinable @inline(__always)
    static func store(_ newValue: Int32?, _ bit: UInt8, in value: inout Int32, reported: inout UInt8) {
        if let newValue {
            value = newValue
            reported |= bit
        } else {
            value = 0
            reported &= ~bit
        }
    }

    public var pressure: Int32? {
        @inlinable @inline(__always) get { attribute(pressureValue, Reported.pressure) }
        @inlinable set { Self.store(newValue, Reported.pressure, in: &pressureValue, reported: &reported) }
    }
    public var touchMajor: Int32? {
        @inlinable @inline(__always) get { attribute(touchMajorValue, Reported.touchMajor) }
        @inlinable set { Self.store(newValue, Reported.touchMajor, in: &touchMajorValue, reported: &reported) }
    }
    public var touchMinor: Int32? {
        @inlinable @inline(__always) get { attribute(touchMinorValue, Reported.touchMinor) }
        @inlinable set { Self.store(newValue, Reported.touchMinor, in: &touchMinorValue, reported: &reported) }
    }
    public var widthMajor: Int32? {
        @inlinable @inline(__always) get { attribute(widthMajorValue, Reported.widthMajor) }
        @inlinable set { Self.store(newValue, Reported.widthMajor, in: &widthMajorValue, reported: &reported) }
    }
    public var widthMinor: Int32? {
        @inlinable @inline(__always) get { attribute(widthMinorValue, Reported.widthMinor) }
        @inlinable set { Self.store(newValue, Reported.widthMinor, in: &widthMinorValue, reported: &reported) }
    }
    public var orientation: Int32? {
        @inlinable @inline(__always) get { attribute(orientationValue, Reported.orientation) }
        @inlinable set { Self.store(newValue, Reported.orientation, in: &orientationValue, reported: &reported) }
    }
    public var toolType: Int32? {
        @inlinable @inline(__always) get { attribute(toolTypeValue, Reported.toolType) }
        @inlinable set { Self.store(newValue, Reported.toolType, in: &toolTypeValue, reported: &reported) }
    }
    public var distance: Int32? {
        @inlinable @inline(__always) get { attribute(distanceValue, Reported.distance) }
        @inlinable set { Self.store(newValue, Reported.distance, in: &distanceValue, reported: &reported) }
    }

    public var isPalm: Bool { toolType == ToolType.palm }

    /// A palm by its tool, or by its size: the major axis (`ABS_MT_TOUCH_MAJOR`, else `ABS_MT_WIDTH_MAJOR`) above
    /// `threshold` (device units; nil: no size limit), as libinput's palm size threshold.
    public func isPalm(majorAbove threshold: Int32?) -> Bool { isPalm || isLarge(majorAbove: threshold) }

    /// The major axis above `threshold` (never, with no threshold or no size reported).
    public func isLarge(majorAbove threshold: Int32?) -> Bool {
        guard let threshold, let major = touchMajor ?? widthMajor else { return false }
        return major > threshold
    }

    /// Stores a multitouch axis value; returns whether the code is one this type keeps.
    // Always inlined: the decoder stores one for most input events, and a call would cost as much as the switch.
    @inline(__always)
    @discardableResult
    public mutating func setMultitouchAxis(_ code: UInt16, _ value: Int32) -> Bool {
        switch code {
        case AbsCode.mtPositionX: x = value
        case AbsCode.mtPositionY: y = value
        case AbsCode.mtPressure: pressure = value
        case AbsCode.mtTouchMajor: touchMajor = value
        case AbsCode.mtTouchMinor: touchMinor = value
        case AbsCode.mtWidthMajor: widthMajor = value
        case AbsCode.mtWidthMinor: widthMinor = value
        case AbsCode.mtOrientation: orientation = value
        case AbsCode.mtToolType: toolType = value
        case AbsCode.mtDistance: distance = value
        default: return false
        }
        return true
    }
}

/// One change to one finger.
public struct FingerEvent: Equatable, Hashable, Sendable {
    public var phase: TouchPhase
    public var finger: FingerID
    /// The kernel slot for protocol B; for protocol A and single touch, the lowest free virtual slot.
    public var slot: Int32
    /// The time of the `SYN_REPORT` that ended the frame.
    public var time: EventTime
    public var contact: ContactState

    public init(phase: TouchPhase, finger: FingerID, slot: Int32, time: EventTime, contact: ContactState) {
        self.phase = phase
        self.finger = finger
        self.slot = slot
        self.time = time
        self.contact = contact
    }
}

/// The decoder's output: finger changes, each frame closed by `frameEnd`. A frame with no finger change
/// produces nothing at all, not even `frameEnd`.
public enum DecoderOutput: Equatable, Hashable, Sendable {
    case finger(FingerEvent)
    case frameEnd(EventTime)
}
