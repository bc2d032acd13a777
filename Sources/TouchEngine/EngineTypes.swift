import TouchCore
import TouchScene

/// A connected client, as the engine numbers them (from 1, in order of connection; never reused).
public struct ClientID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: ClientID, b: ClientID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// A device the engine holds, by the index that also numbers its fingers (`DeviceTag.index`). Not TouchCore's
/// `DeviceID`, which is the kernel's bus, vendor and product.
public struct DeviceHandle: Hashable, Comparable, Sendable {
    public let index: UInt16
    public init(_ index: UInt16) { self.index = index }
    public static func < (a: DeviceHandle, b: DeviceHandle) -> Bool { a.index < b.index }
}

/// How urgent a log record is; the adapter maps it to the journal's priorities.
public enum Severity: Int, Comparable, Sendable {
    case error = 3, warning, notice, info, debug
    public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
}

/// What a client's socket should be watched for.
public struct Interest: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let readable = Interest(rawValue: 1)
    public static let writable = Interest(rawValue: 2)
}

/// What the engine asks of its adapter. Taken with `Engine.takeEffects()` after every input, in order.
public enum EngineEffect: Equatable, Sendable {
    case log(Severity, String)
    /// The one-line status (systemd's STATUS=) changed.
    case status(String)
    /// Watch the client's socket for this (readable: the engine takes its requests; writable: bytes wait).
    case watch(ClientID, Interest)
    /// The client has bytes to send: call `Engine.flush(_:at:write:)` when its socket can take them.
    case flush(ClientID)
    /// The engine has forgotten the client: write `finalBytes` if the socket takes them (a goodbye), then close it.
    case close(ClientID, finalBytes: [UInt8])
    /// Write these events, whole protocol B frames each ending in `SYN_REPORT`, to the device's virtual
    /// touchscreen (a device added with `DeviceSpec.virtualTouchscreen`): the fingers no region claims.
    case emit(DeviceHandle, [InputEvent])
    /// A client asked for what SIGHUP does (`reload`): read the scene file and the devices' calibrations again.
    case reload(source: String)
}

/// What happened to the socket when the adapter wrote what `flush` handed it.
public enum WriteResult: Equatable, Sendable {
    /// This many bytes were taken (0: the socket is full).
    case wrote(Int)
    /// The connection failed (EPIPE, ECONNRESET, …).
    case failed
}

/// A device to add: a live evdev device or a recording played as one.
public struct DeviceSpec: Sendable {
    public enum Key: Sendable {
        /// The key clients see in `device` fields, e.g. "event3".
        case named(String)
        /// The prefix and the device's index, e.g. "replay0".
        case numbered(prefix: String)
    }

    public var key: Key
    public var node: String
    public var description: DeviceDescription
    /// The device's own settings (rotation, calibration, …).
    public var mapping: CoordinateMapping.Settings
    /// The output size is the scene's, and follows it when the scene changes (a live device: the scene is the
    /// screen). Off: `mapping` is used as it is (`touchd replay`, whose --size may differ from the scene's).
    public var mapsToScene: Bool
    /// The virtual touchscreen the adapter made for this device (`VirtualTouchscreen.description(for:)`), if any:
    /// the fingers no region claims, or that land on a region that forwards, go there (`EngineEffect.emit`).
    public var virtualTouchscreen: DeviceDescription?
    /// The jitter filter for its finger positions (docs/decoding.md, "Jitter"); libinput's hysteresis by default.
    public var filter: JitterFilter
    /// The palm size threshold in device units (`PalmSize.deviceUnits`); nil: palms by tool only.
    public var palmMajor: Int32?
    /// When a touch the panel never lifts is cancelled (`StuckTouchPolicy`); off unless set.
    public var stuckTouches = StuckTouchPolicy.off

    public init(
        key: Key, node: String, description: DeviceDescription,
        mapping: CoordinateMapping.Settings = CoordinateMapping.Settings(), mapsToScene: Bool = true,
        filter: JitterFilter = .standard,
        virtualTouchscreen: DeviceDescription? = nil
    ) {
        self.key = key
        self.node = node
        self.description = description
        self.mapping = mapping
        self.mapsToScene = mapsToScene
        self.virtualTouchscreen = virtualTouchscreen
        self.filter = filter
    }
}
