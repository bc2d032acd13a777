/// libinput's touch hysteresis (`evdev_hysteresis`, applied per slot in evdev-fallback.c): the reported position of
/// a finger stays where it is while the kernel's position stays inside an ellipse of radii `margin` around it.
/// What happens once the kernel's position leaves the ellipse is the `release`.
public struct FuzzHysteresis: Equatable, Sendable {
    /// Radii of the ellipse, in device units.
    public var marginX: Double
    public var marginY: Double
    public var release: Release

    /// Where the reported position goes once the kernel's leaves the ellipse.
    public enum Release: Equatable, Sendable {
        /// To the ellipse's edge, on the way to the kernel's position: libinput's hysteresis, for panels that
        /// declare a fuzz. A moving finger lags by up to the margin, as it does under libinput.
        case edge
        /// To the kernel's position itself when the frame moved the finger by more than the margin since its
        /// previous sample (motion, not noise), else to the edge: for panels that declare no fuzz, where libinput
        /// does not filter at all and any lag would be one that libinput's users never had. A moving finger does
        /// not lag; noise, and a creep slower than the margin a frame, is held as by the hysteresis.
        case kernelPositionOnMotion
    }

    public init(marginX: Double, marginY: Double, release: Release = .edge) {
        self.marginX = marginX
        self.marginY = marginY
        self.release = release
    }

    /// The margins for a device: half of each axis's fuzz with libinput's release, as libinput. When neither axis
    /// declares a fuzz, mtdev's default fuzz (range / 250, its coordinate signal-to-noise ratio; not rounded down,
    /// so that an 800-unit axis keeps 3.2 units, not 3) with the release on motion; an axis under 250 units gets
    /// none, so nothing is filtered (as libinput with fuzz 0). An axis without fuzz beside one with keeps half the
    /// default. `fuzz` overrides both axes' fuzz, as if the device declared it.
    public init(device: DeviceDescription, fuzz override: Int32? = nil) {
        if let override {
            self.init(marginX: Double(override) / 2, marginY: Double(override) / 2)
            return
        }
        let declares = (device.xAxis?.fuzz ?? 0) > 0 || (device.yAxis?.fuzz ?? 0) > 0
        func margin(_ axis: AbsInfo?) -> Double {
            guard let axis else { return 0 }
            if axis.fuzz > 0 { return Double(axis.fuzz) / 2 }
            let defaultFuzz = MtdevDefuzz.defaultFuzz(of: axis)
            // Beside an axis that declares a fuzz, half of the default, as before the release on motion existed.
            if declares || defaultFuzz == 0 { return Double(defaultFuzz) / 2 }
            return Double(Int64(axis.maximum) - Int64(axis.minimum)) / 250
        }
        self.init(
            marginX: margin(device.xAxis), marginY: margin(device.yAxis),
            release: declares ? .edge : .kernelPositionOnMotion)
    }

    /// Whether the hysteresis does anything: libinput skips it when either margin is zero.
    public var isActive: Bool { marginX > 0 && marginY > 0 && marginX.isFinite && marginY.isFinite }

    /// The position to report for kernel position (`x`, `y`) when the finger is reported at `center` and its
    /// previous kernel position was `previous`: `center` itself when the kernel's position is inside the ellipse,
    /// else the point on the way from the kernel's position back to the center that lies on the ellipse, or (with
    /// `.kernelPositionOnMotion`, after a step beyond the ellipse's size) the kernel's position.
    public func apply(x: Double, y: Double, center: (x: Double, y: Double), previous: (x: Double, y: Double)) -> (
        x: Double, y: Double
    ) {
        guard isActive else { return (x, y) }
        let dx = x - center.x
        let dy = y - center.y
        let scaled = scaledDistance(dx, dy)
        if scaled <= 1 { return center }
        if release == .kernelPositionOnMotion && scaledDistance(x - previous.x, y - previous.y) > 1 { return (x, y) }
        return (x - dx / scaled, y - dy / scaled)
    }

    private func scaledDistance(_ dx: Double, _ dy: Double) -> Double {
        ((dx / marginX) * (dx / marginX) + (dy / marginY) * (dy / marginY)).squareRoot()
    }
}
