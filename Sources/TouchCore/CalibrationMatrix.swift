/// An affine map of the normalized device square [0,1]², in libinput's form: the six numbers of
/// `LIBINPUT_CALIBRATION_MATRIX`, `x' = a·x + b·y + c`, `y' = d·x + e·y + f`.
public struct CalibrationMatrix: Equatable, Hashable, Sendable {
    public var a, b, c, d, e, f: Double

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    public static let identity = CalibrationMatrix(1, 0, 0, 0, 1, 0)

    /// Parses the udev property's text: six numbers separated by spaces. Nil when it is not exactly that.
    public init?(udevProperty text: String) {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        guard numbers.count == 6, text.split(whereSeparator: { $0 == " " || $0 == "\t" }).count == 6 else {
            return nil
        }
        self.init(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }

    /// The six numbers, for printing and for the udev property.
    public var values: [Double] { [a, b, c, d, e, f] }

    /// The clockwise rotation by `degrees` (0, 90, 180 or 270) as libinput's documentation gives it:
    /// 90° is `0 -1 1 1 0 0`, 180° is `-1 0 1 0 -1 1`, 270° is `0 1 0 -1 0 1`.
    public static func rotation(degrees: Int) -> CalibrationMatrix? {
        switch degrees {
        case 0: .identity
        case 90: CalibrationMatrix(0, -1, 1, 1, 0, 0)
        case 180: CalibrationMatrix(-1, 0, 1, 0, -1, 1)
        case 270: CalibrationMatrix(0, 1, 0, -1, 0, 1)
        default: nil
        }
    }

    /// Mirror of x and/or y inside the unit square.
    public static func inversion(x: Bool, y: Bool) -> CalibrationMatrix {
        CalibrationMatrix(x ? -1 : 1, 0, x ? 1 : 0, 0, y ? -1 : 1, y ? 1 : 0)
    }

    @inlinable @inline(__always)
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + c, d * x + e * y + f)
    }

    /// `self` after `first`: `(self ∘ first)(p) = self(first(p))`.
    public func after(_ first: CalibrationMatrix) -> CalibrationMatrix {
        CalibrationMatrix(
            a * first.a + b * first.d, a * first.b + b * first.e, a * first.c + b * first.f + c,
            d * first.a + e * first.d, d * first.b + e * first.e, d * first.c + e * first.f + f)
    }
}
