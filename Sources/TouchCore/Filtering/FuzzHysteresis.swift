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
        /// To the ellipse's edge, on the way to the kernel's position: libinput's hysteresis, for the panels that
        /// libinput filters. A moving finger lags by up to the margin, as it does under libinput.
        case edge
        /// To the kernel's position itself when the frame moved the finger by more than the margin since its
        /// previous sample (motion, not noise), else to the edge: for the panels libinput does not filter at all,
        /// where any lag would be one that libinput's users never had. A moving finger does
        /// not lag; noise, and a creep slower than the margin a frame, is held as by the hysteresis.
        case kernelPositionOnMotion
    }

    public init(marginX: Double, marginY: Double, release: Release = .edge) {
        self.marginX = marginX
        self.marginY = marginY
        self.release = release
    }

    /// The hysteresis for a device, following what libinput (1.22) does to it. libinput applies its hysteresis
    /// only to multitouch panels whose margins, half of each axis's fuzz in integers, are both at least 1: there
    /// touchd does the same, with libinput's release (`.edge`). Everything else libinput leaves unfiltered (no
    /// fuzz, a fuzz on one axis only, a fuzz of 1, single touch), so touchd must add no lag on motion: it takes
    /// each axis's noise as its fuzz (the declared one, else mtdev's default, range / 250, not rounded down, so
    /// that an 800-unit axis keeps 3.2 units) as the margin, released on motion; an axis under 250 units with no
    /// fuzz gets none, and nothing is filtered. `fuzz` overrides both axes' fuzz, as if the device declared it.
    public init(device: DeviceDescription, fuzz override: Int32? = nil) {
        let fuzzX = override ?? device.xAxis?.fuzz ?? 0
        let fuzzY = override ?? device.yAxis?.fuzz ?? 0
        if Self.libinputFilters(device, fuzzX: fuzzX, fuzzY: fuzzY) {
            self.init(marginX: Double(fuzzX) / 2, marginY: Double(fuzzY) / 2, release: .edge)
            return
        }
        func margin(_ axis: AbsInfo?, fuzz: Int32) -> Double {
            guard let axis else { return 0 }
            if fuzz > 0 { return Double(fuzz) }
            if MtdevDefuzz.defaultFuzz(of: axis) == 0 { return 0 }
            return Double(Int64(axis.maximum) - Int64(axis.minimum)) / 250
        }
        self.init(
            marginX: margin(device.xAxis, fuzz: fuzzX), marginY: margin(device.yAxis, fuzz: fuzzY),
            release: .kernelPositionOnMotion)
    }

    /// Whether libinput applies its hysteresis to the device (evdev-fallback.c): multitouch only, and both
    /// margins (fuzz / 2 in integers) non-zero.
    public static func libinputFilters(_ device: DeviceDescription, fuzzX: Int32, fuzzY: Int32) -> Bool {
        device.touchProtocol != .singleTouch && fuzzX / 2 > 0 && fuzzY / 2 > 0
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
        return applyActive(x: x, y: y, center: center, previous: previous)
    }

    /// `apply` for a hysteresis known to be active (the filter asks once, when it is made).
    @inline(__always)
    func applyActive(x: Double, y: Double, center: (x: Double, y: Double), previous: (x: Double, y: Double)) -> (
        x: Double, y: Double
    ) {
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
