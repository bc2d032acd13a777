import TouchCore
import TouchJSON

extension ListDevicesCommand {
    /// `palm size:` for a touchscreen that reports touch size: the threshold as configured and in device units, or
    /// why none applies.
    static func palmSizeLine(_ value: Double?, description: DeviceDescription) -> String {
        guard let axisFound = PalmSize.axis(of: description) else {
            guard let value else { return "" }
            return "  palm size: \(NumberText.text(value)) configured, but the device reports no touch size\n"
        }
        let (code, info) = axisFound
        let axis = code == AbsCode.mtTouchMajor ? "ABS_MT_TOUCH_MAJOR" : "ABS_MT_WIDTH_MAJOR"
        let range = "\(axis) \(info.minimum)...\(info.maximum)"
        guard let value, let units = PalmSize.deviceUnits(value, on: description) else {
            return "  palm size: off (\(range)); palms by tool only\n"
        }
        let unit = PalmSize.isMillimetres(on: description) ? " mm" : " units"
        return "  palm size: above \(NumberText.text(value))\(unit) = \(units) units of \(range) (configuration)\n"
    }
}
