/// Device units to output units for one device.
///
/// Order: normalize each axis to [0,1) as libinput does (`(v - min) / (max - min + 1)`), apply the device's
/// calibration matrix (hardware correction, e.g. `LIBINPUT_CALIBRATION_MATRIX`), then the installation's
/// inversion and clockwise rotation, then scale to the output size. Rotation by 90° is the same as libinput's
/// 90° preset matrix, so a panel documented with either form gives the same result. A target region (`mapTo`,
/// sway's `map_to_region`) comes last: the transformed [0,1)² lands on that rectangle of the output instead of on
/// all of it.
public struct CoordinateMapping: Equatable, Sendable {
    public private(set) var xAxis: AbsInfo
    public private(set) var yAxis: AbsInfo
    /// Each axis's minimum and its range plus one (`max - min + 1`) as the normalization divides by them, worked out
    /// once from the axes rather than from the integers at every finger event.
    @usableFromInline let xMinimum: Double
    @usableFromInline let yMinimum: Double
    @usableFromInline let xSpan: Double
    @usableFromInline let ySpan: Double
    /// Where [0,1)² lands: the target region, or the whole output from (0, 0).
    public var originX: Double = 0
    public var originY: Double = 0
    public var outputWidth: Double
    public var outputHeight: Double
    public let transform: CalibrationMatrix

    public struct Settings: Equatable, Sendable {
        /// Output size; nil means the device's own range, with width and height swapped by 90° and 270°.
        public var outputSize: (width: Double, height: Double)?
        public var rotation: Int = 0
        public var invertX = false
        public var invertY = false
        public var calibration: CalibrationMatrix = .identity
        /// The rectangle of the output the device covers, in output units; nil: the whole output.
        public var region: MappingRegion?

        public init(
            outputSize: (width: Double, height: Double)? = nil, rotation: Int = 0, invertX: Bool = false,
            invertY: Bool = false, calibration: CalibrationMatrix = .identity, region: MappingRegion? = nil
        ) {
            self.outputSize = outputSize
            self.rotation = rotation
            self.invertX = invertX
            self.invertY = invertY
            self.calibration = calibration
            self.region = region
        }

        public static func == (lhs: Settings, rhs: Settings) -> Bool {
            lhs.outputSize?.width == rhs.outputSize?.width && lhs.outputSize?.height == rhs.outputSize?.height
                && lhs.rotation == rhs.rotation && lhs.invertX == rhs.invertX && lhs.invertY == rhs.invertY
                && lhs.calibration == rhs.calibration && lhs.region == rhs.region
        }
    }

    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case unsupportedRotation(Int)
        case missingAxis(String)

        public var description: String {
            switch self {
            case .unsupportedRotation(let degrees): "rotation must be 0, 90, 180 or 270, not \(degrees)"
            case .missingAxis(let axis): "the device has no \(axis) axis to map"
            }
        }
    }

    public init(device: DeviceDescription, settings: Settings = Settings()) throws(Error) {
        guard let xAxis = device.xAxis else { throw .missingAxis("x") }
        guard let yAxis = device.yAxis else { throw .missingAxis("y") }
        try self.init(xAxis: xAxis, yAxis: yAxis, settings: settings)
    }

    public init(xAxis: AbsInfo, yAxis: AbsInfo, settings: Settings = Settings()) throws(Error) {
        guard let rotation = CalibrationMatrix.rotation(degrees: settings.rotation) else {
            throw .unsupportedRotation(settings.rotation)
        }
        self.xAxis = xAxis
        self.yAxis = yAxis
        let deviceWidth = Double(Int64(xAxis.maximum) - Int64(xAxis.minimum) + 1)
        let deviceHeight = Double(Int64(yAxis.maximum) - Int64(yAxis.minimum) + 1)
        (xMinimum, yMinimum) = (Double(xAxis.minimum), Double(yAxis.minimum))
        (xSpan, ySpan) = (deviceWidth, deviceHeight)
        if let region = settings.region {
            (originX, originY) = (region.x, region.y)
            (outputWidth, outputHeight) = (region.width, region.height)
        } else if let size = settings.outputSize {
            (outputWidth, outputHeight) = (size.width, size.height)
        } else if settings.rotation % 180 == 90 {
            (outputWidth, outputHeight) = (deviceHeight, deviceWidth)
        } else {
            (outputWidth, outputHeight) = (deviceWidth, deviceHeight)
        }
        transform = rotation.after(
            CalibrationMatrix.inversion(x: settings.invertX, y: settings.invertY).after(settings.calibration))
    }

    // The mapping functions are always inlined: the filter stage, inlined into the engine, maps every finger event,
    // and a call takes a copy of the whole mapping (its axes and matrix) for `self`.

    /// Device coordinates normalized to [0,1), before any transform.
    @inlinable @inline(__always)
    public func normalized(x: Int32, y: Int32) -> (x: Double, y: Double) {
        let nx = Double(Int64(x) - Int64(xAxis.minimum)) / xSpan
        let ny = Double(Int64(y) - Int64(yAxis.minimum)) / ySpan
        return (nx, ny)
    }

    @inlinable @inline(__always)
    public func map(x: Int32, y: Int32) -> Point {
        let n = normalized(x: x, y: y)
        let t = transform.apply(x: n.x, y: n.y)
        return Point(x: originX + t.x * outputWidth, y: originY + t.y * outputHeight)
    }

    @inlinable @inline(__always)
    public func map(_ contact: ContactState) -> Point { map(x: contact.x, y: contact.y) }

    /// A position between device units (a filtered one). For whole numbers it is exactly `map(x:y:)`: both
    /// subtract in `Double`, which holds any difference of two `Int32`s exactly.
    @inlinable @inline(__always)
    public func map(deviceX x: Double, deviceY y: Double) -> Point {
        let nx = (x - xMinimum) / xSpan
        let ny = (y - yMinimum) / ySpan
        let t = transform.apply(x: nx, y: ny)
        return Point(x: originX + t.x * outputWidth, y: originY + t.y * outputHeight)
    }
}
