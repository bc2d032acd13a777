import TouchCore

/// One tap at one target: where the device saw it and where it should have been.
public struct CalibrationSample: Equatable, Sendable {
    /// The tap in the device's normalized square, `CoordinateMapping.normalized` (libinput's `(v - min) / (max -
    /// min + 1)`), before any matrix.
    public var touch: (x: Double, y: Double)
    /// The target in the display's normalized square: pixel over the display's width and height.
    public var target: (x: Double, y: Double)

    public init(touch: (x: Double, y: Double), target: (x: Double, y: Double)) {
        self.touch = touch
        self.target = target
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.touch == rhs.touch && lhs.target == rhs.target
    }
}

/// Why samples give no matrix.
public enum CalibrationError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooFewTargets(Int)
    case collinearTargets
    /// The taps lie on one line (or on one spot): the device reported no second dimension.
    case collinearTouches
    case tapCountMismatch(taps: Int, targets: Int)
    /// A point's residual exceeds the limit (display fractions): probably a mis-tap. `point` counts from 1.
    case residualTooLarge(point: Int, residual: Double, limit: Double)
    /// The fit's sums overflow a Double (targets such as 1e300 of a display): no finite matrix and residuals.
    case targetsOutOfRange

    public var description: String {
        switch self {
        case .tooFewTargets(let count):
            "an affine fit needs at least 3 targets, not \(count)"
        case .collinearTargets:
            "the targets lie on one line: they fix no affine matrix"
        case .collinearTouches:
            "the taps lie on one line: the device reported no second dimension (a broken axis?)"
        case .tapCountMismatch(let taps, let targets):
            "the recording has \(taps) tap\(taps == 1 ? "" : "s") for \(targets) targets (one tap per target, in order)"
        case .residualTooLarge(let point, let residual, let limit):
            "point \(point) is \(percent(residual)) of the display from the fit (limit \(percent(limit))): "
                + "probably a mis-tap; tap the targets again"
        case .targetsOutOfRange:
            "the targets are too large for a fit (its sums overflow): are they in the display's units?"
        }
    }

    private func percent(_ fraction: Double) -> String { CalibrationText.fixed(fraction * 100, 1) + " %" }
}

/// The six-parameter affine matrix that best maps taps to targets, by least squares in normalized coordinates,
/// with how far each tap stays from its target.
///
/// `x' = a·x + b·y + c` and `y' = d·x + e·y + f` are two independent linear least-squares problems over the same
/// design matrix rows `[x y 1]`: each is solved from its 3×3 normal equations. Three targets not on a line fix the
/// matrix exactly; more over-determine it, and the residuals show how well the panel is affine (and a mis-tap).
public struct CalibrationFit: Equatable, Sendable {
    public var matrix: CalibrationMatrix
    /// Per sample, the mapped tap minus its target, in display fractions.
    public var residuals: [(x: Double, y: Double)]

    /// A residual distance beyond which `checked` calls a point a mis-tap: 5 % of the display, several times what a
    /// careful tap misses by, and less than the gap between two targets.
    public static let defaultResidualLimit = 0.05

    public init(_ samples: [CalibrationSample]) throws(CalibrationError) {
        guard samples.count >= 3 else { throw .tooFewTargets(samples.count) }
        if Self.isCollinear(samples.map(\.target)) { throw .collinearTargets }
        if Self.isCollinear(samples.map(\.touch)) { throw .collinearTouches }
        var normal = [[Double]](repeating: [0, 0, 0], count: 3)
        var rightX = [0.0, 0, 0]
        var rightY = [0.0, 0, 0]
        for sample in samples {
            let row = [sample.touch.x, sample.touch.y, 1]
            for i in 0..<3 {
                for j in 0..<3 { normal[i][j] += row[i] * row[j] }
                rightX[i] += row[i] * sample.target.x
                rightY[i] += row[i] * sample.target.y
            }
        }
        guard let abc = Self.solve(normal, rightX), let def = Self.solve(normal, rightY) else {
            throw .collinearTouches
        }
        let matrix = CalibrationMatrix(abc[0], abc[1], abc[2], def[0], def[1], def[2])
        self.matrix = matrix
        residuals = samples.map { sample in
            let mapped = matrix.apply(x: sample.touch.x, y: sample.touch.y)
            return (mapped.x - sample.target.x, mapped.y - sample.target.y)
        }
        // Overflowed sums also make the collinearity test's ratio NaN, which reads as "not collinear".
        guard matrix.values.allSatisfy(\.isFinite), residualDistances.allSatisfy(\.isFinite) else {
            throw .targetsOutOfRange
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.matrix == rhs.matrix && lhs.residuals.elementsEqual(rhs.residuals) { $0 == $1 }
    }

    /// The residual distances, in display fractions.
    public var residualDistances: [Double] { residuals.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() } }

    /// Self, or the first point whose residual exceeds `limit`.
    public func checked(limit: Double = defaultResidualLimit) throws(CalibrationError) -> CalibrationFit {
        for (index, distance) in residualDistances.enumerated() where !(distance <= limit) {
            throw .residualTooLarge(point: index + 1, residual: distance, limit: limit)
        }
        return self
    }

    /// Each residual as a distance on the glass: the display-space residual taken back through the matrix's linear
    /// part into device units, then divided by each axis's resolution (units per mm). Nil when either axis has
    /// resolution 0 (the kernel did not say): then `residualsInDeviceUnits` is what there is.
    public func residualsInMillimetres(xAxis: AbsInfo, yAxis: AbsInfo) -> [Double]? {
        guard xAxis.resolution > 0, yAxis.resolution > 0 else { return nil }
        return deviceResiduals(xAxis: xAxis, yAxis: yAxis).map { residual in
            let x = residual.x / Double(xAxis.resolution)
            let y = residual.y / Double(yAxis.resolution)
            return (x * x + y * y).squareRoot()
        }
    }

    /// Each residual as a distance in device units (both axes' units taken as equal).
    public func residualsInDeviceUnits(xAxis: AbsInfo, yAxis: AbsInfo) -> [Double] {
        deviceResiduals(xAxis: xAxis, yAxis: yAxis).map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
    }

    private func deviceResiduals(xAxis: AbsInfo, yAxis: AbsInfo) -> [(x: Double, y: Double)] {
        let width = Double(Int64(xAxis.maximum) - Int64(xAxis.minimum) + 1)
        let height = Double(Int64(yAxis.maximum) - Int64(yAxis.minimum) + 1)
        let determinant = matrix.a * matrix.e - matrix.b * matrix.d
        return residuals.map { residual in
            // Inverse of [[a b] [d e]] applied to the residual: the same displacement in the device's square.
            let nx = (matrix.e * residual.x - matrix.b * residual.y) / determinant
            let ny = (-matrix.d * residual.x + matrix.a * residual.y) / determinant
            return (nx * width, ny * height)
        }
    }

    /// Points spanning less area than a line's width would: the spread's smaller principal variance is under a
    /// millionth of the larger (one point in a thousand off the line, over the line's length).
    static func isCollinear(_ points: [(x: Double, y: Double)]) -> Bool {
        let count = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.x } / count
        let meanY = points.reduce(0) { $0 + $1.y } / count
        var sxx = 0.0
        var syy = 0.0
        var sxy = 0.0
        for point in points {
            sxx += (point.x - meanX) * (point.x - meanX)
            syy += (point.y - meanY) * (point.y - meanY)
            sxy += (point.x - meanX) * (point.y - meanY)
        }
        let trace = sxx + syy
        guard trace > 0 else { return true }
        return (sxx * syy - sxy * sxy) / (trace * trace) < 1e-6
    }

    /// Gaussian elimination with partial pivoting; nil for a singular system.
    static func solve(_ matrix: [[Double]], _ right: [Double]) -> [Double]? {
        var rows = matrix.indices.map { matrix[$0] + [right[$0]] }
        let n = rows.count
        for column in 0..<n {
            let pivot = (column..<n).max { abs(rows[$0][column]) < abs(rows[$1][column]) }!
            guard abs(rows[pivot][column]) > 1e-12 else { return nil }
            rows.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = rows[row][column] / rows[column][column]
                for k in column...n { rows[row][k] -= factor * rows[column][k] }
            }
        }
        var solution = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = rows[row][n]
            for k in (row + 1)..<n { sum -= rows[row][k] * solution[k] }
            solution[row] = sum / rows[row][row]
        }
        return solution
    }
}

extension CalibrationSample {
    /// A device position (in units, possibly between them: a tap's mean) in libinput's normalized square,
    /// `(v - min) / (max - min + 1)`, as `CoordinateMapping.normalized`.
    public static func normalized(_ value: Double, _ axis: AbsInfo) -> Double {
        (value - Double(axis.minimum)) / Double(Int64(axis.maximum) - Int64(axis.minimum) + 1)
    }
}
