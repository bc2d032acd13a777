/// One DRM connector (a monitor's socket) as the kernel reports it: its name as DRM spells it (`HDMI-A-1`, `DP-2`,
/// `eDP-1`), whether a monitor is connected, and that monitor's EDID.
public struct DisplayConnector: Equatable, Sendable {
    public var name: String
    public var connected: Bool
    public var edid: EDID?

    public init(name: String, connected: Bool, edid: EDID? = nil) {
        self.name = name
        self.connected = connected
        self.edid = edid
    }

    /// The connector types of a laptop's or tablet's own panel (embedded DisplayPort, MIPI DSI, LVDS).
    public static let builtInTypes = ["eDP", "DSI", "LVDS"]

    public var isBuiltIn: Bool {
        Self.builtInTypes.contains { name == $0 || name.hasPrefix($0 + "-") }
    }
}

/// What the choice of monitor needs to know of a touchscreen.
public struct TouchscreenFacts: Equatable, Sendable {
    public var name: String
    /// Physical size in mm, when both axes state a resolution.
    public var widthMM: Double?
    public var heightMM: Double?
    /// Part of the machine (I²C, SPI, the host bus) rather than plugged in (USB, Bluetooth, virtual).
    public var builtIn: Bool

    public init(name: String, widthMM: Double?, heightMM: Double?, builtIn: Bool) {
        self.name = name
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.builtIn = builtIn
    }

    /// Kernel bus types (`BUS_*` in linux/input.h) of devices that come with the machine.
    public static let builtInBuses: Set<UInt16> = [0x11, 0x18, 0x19, 0x1C]  // I8042, I2C, HOST, SPI

    /// From the device's axes: the size is the range over the resolution (units per mm), as libinput's
    /// `libinput_device_get_size` computes it.
    public init(_ description: DeviceDescription) {
        func millimetres(_ axis: AbsInfo?) -> Double? {
            guard let axis, axis.resolution > 0 else { return nil }
            return Double(Int64(axis.maximum) - Int64(axis.minimum)) / Double(axis.resolution)
        }
        let width = millimetres(description.xAxis)
        let height = millimetres(description.yAxis)
        self.init(
            name: description.name, widthMM: width == nil || height == nil ? nil : width,
            heightMM: width == nil || height == nil ? nil : height,
            builtIn: Self.builtInBuses.contains(description.id.bustype))
    }
}
