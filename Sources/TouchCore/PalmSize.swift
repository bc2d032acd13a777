/// The palm size threshold of a device (libinput's `AttrPalmSizeThreshold` for touchscreens): a touch whose major
/// axis passes it is a palm. Given in millimetres where the major axis declares a resolution (units per mm), in
/// device units otherwise; the decoder compares device units (`TouchDecoder.Options.palmMajor`).
public enum PalmSize {
    /// The axis the threshold applies to: `ABS_MT_TOUCH_MAJOR`, else `ABS_MT_WIDTH_MAJOR` (the decoder reads the
    /// width only when there is no touch major). Nil: the device reports no size, and no threshold can apply.
    public static func axis(of description: DeviceDescription) -> (code: UInt16, info: AbsInfo)? {
        for code in [AbsCode.mtTouchMajor, AbsCode.mtWidthMajor] {
            if let info = description.absInfo[code] { return (code, info) }
        }
        return nil
    }

    /// Whether `value` is read as millimetres on this device (its major axis has a resolution).
    public static func isMillimetres(on description: DeviceDescription) -> Bool {
        (axis(of: description)?.info.resolution ?? 0) > 0
    }

    /// The threshold in device units: `value` × the axis's resolution, or `value` itself on an axis without one,
    /// rounded down (a touch passes it when its major is above). Nil with no value or no size axis.
    public static func deviceUnits(_ value: Double?, on description: DeviceDescription) -> Int32? {
        guard let value, let info = axis(of: description)?.info else { return nil }
        let units = info.resolution > 0 ? value * Double(info.resolution) : value
        return Int32(min(max(units.rounded(.down), 0), Double(Int32.max)))
    }
}
