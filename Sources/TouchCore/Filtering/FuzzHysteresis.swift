/// libinput's touch hysteresis (`evdev_hysteresis`, applied per slot in evdev-fallback.c): the reported position of
/// a finger stays where it is while the kernel's position stays inside an ellipse of radii `margin` around it;
/// once the kernel's position leaves the ellipse, the reported position follows it, staying on the ellipse's edge.
/// So a still finger's jitter is absorbed, and a moving finger lags by at most the margin on each axis.
public struct FuzzHysteresis: Equatable, Sendable {
    /// Radii of the ellipse, in device units: half of each axis's fuzz, as libinput.
    public var marginX: Double
    public var marginY: Double

    public init(marginX: Double, marginY: Double) {
        self.marginX = marginX
        self.marginY = marginY
    }

    /// The margins for a device: half of each axis's fuzz; an axis that declares none gets mtdev's default fuzz
    /// (range / 250, its coordinate signal-to-noise ratio); `fuzz` overrides both.
    public init(device: DeviceDescription, fuzz override: Int32? = nil) {
        func margin(_ axis: AbsInfo?) -> Double {
            if let override { return Double(override) / 2 }
            guard let axis else { return 0 }
            if axis.fuzz > 0 { return Double(axis.fuzz) / 2 }
            return Double((Int64(axis.maximum) - Int64(axis.minimum)) / 250) / 2
        }
        self.init(marginX: margin(device.xAxis), marginY: margin(device.yAxis))
    }

    /// Whether the hysteresis does anything: libinput skips it when either margin is zero.
    public var isActive: Bool { marginX > 0 && marginY > 0 && marginX.isFinite && marginY.isFinite }

    /// The position to report for kernel position (`x`, `y`) when the finger is reported at `center`: `center`
    /// itself when the kernel's position is inside the ellipse, else the point on the way from the kernel's
    /// position back to the center that lies on the ellipse around the center scaled through it.
    public func apply(x: Double, y: Double, center: (x: Double, y: Double)) -> (x: Double, y: Double) {
        guard isActive else { return (x, y) }
        let dx = x - center.x
        let dy = y - center.y
        let scaled = ((dx / marginX) * (dx / marginX) + (dy / marginY) * (dy / marginY)).squareRoot()
        if scaled <= 1 { return center }
        return (x - dx / scaled, y - dy / scaled)
    }
}
