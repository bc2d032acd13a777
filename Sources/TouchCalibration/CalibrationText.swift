import TouchCore
import TouchJSON

/// How a fit is printed: the matrix in libinput's form, a udev rule, and the residual of each point.
public enum CalibrationText {
    /// A matrix value to six decimals (libinput reads floats; a millionth of the panel is far below a device unit),
    /// without a trailing `.0` or `-0`.
    public static func number(_ value: Double) -> String {
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        return NumberText.text(rounded == 0 ? 0 : rounded)
    }

    /// `LIBINPUT_CALIBRATION_MATRIX="a b c d e f"`
    public static func property(_ matrix: CalibrationMatrix) -> String {
        "LIBINPUT_CALIBRATION_MATRIX=\"" + matrix.values.map(number).joined(separator: " ") + "\""
    }

    /// A udev rule setting the property for the device of this name (the kernel's name, as in
    /// `/sys/class/input/eventN/device/name`); `"` and `\` in the name cannot be matched by udev and are given as
    /// `?`, which matches any one character.
    public static func udevRule(_ matrix: CalibrationMatrix, deviceName: String) -> String {
        let name = String(deviceName.map { $0 == "\"" || $0 == "\\" || $0 == "*" || $0 == "?" ? "?" : $0 })
        return "ACTION==\"add|change\", SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\"\(name)\", "
            + "ENV{LIBINPUT_CALIBRATION_MATRIX}=\"" + matrix.values.map(number).joined(separator: " ") + "\""
    }

    /// One line per point: its target, and its residual in millimetres on the glass, or in device units when the
    /// device reports no resolution, and in display units when `displaySize` is known.
    public static func residualLines(
        _ fit: CalibrationFit, targets: [(x: Double, y: Double)], xAxis: AbsInfo, yAxis: AbsInfo,
        displaySize: (width: Double, height: Double)?
    ) -> [String] {
        let millimetres = fit.residualsInMillimetres(xAxis: xAxis, yAxis: yAxis)
        let units = fit.residualsInDeviceUnits(xAxis: xAxis, yAxis: yAxis)
        var lines: [String] = []
        for index in fit.residuals.indices {
            let target = targets[index]
            var line = "point \(index + 1) at \(fixed(target.x, 1)),\(fixed(target.y, 1)): residual "
            if let millimetres {
                line += fixed(millimetres[index], 2) + " mm"
            } else {
                line += fixed(units[index], 1) + " device units"
            }
            if let size = displaySize {
                let residual = fit.residuals[index]
                let dx = residual.x * size.width
                let dy = residual.y * size.height
                line += " (" + fixed((dx * dx + dy * dy).squareRoot(), 1) + " px)"
            }
            lines.append(line)
        }
        if millimetres == nil {
            lines.append("(the device reports no axis resolution, so residuals are in device units, not mm)")
        }
        return lines
    }

    /// `value` with `decimals` digits after the point.
    /// A value too large for that (past 1e15, or not finite) is written as `NumberText` writes it (`1e+19`, `inf`).
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e15 else { return NumberText.text(value) }
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
}
