import Testing
import TouchCalibration
import TouchCore

@Suite struct CalibrationFitTests {
    private func sample(_ touch: (Double, Double), _ target: (Double, Double)) -> CalibrationSample {
        CalibrationSample(touch: touch, target: target)
    }

    @Test func threeTargetsFixTheMatrixExactly() throws {
        // The unit triangle taken to (0.1,0.2), (0.6,0.2), (0.1,0.9): x' = 0.5x + 0.1, y' = 0.7y + 0.2.
        let fit = try CalibrationFit([
            sample((0, 0), (0.1, 0.2)), sample((1, 0), (0.6, 0.2)), sample((0, 1), (0.1, 0.9)),
        ])
        let expected = [0.5, 0, 0.1, 0, 0.7, 0.2]
        for (value, want) in zip(fit.matrix.values, expected) { #expect(abs(value - want) < 1e-12) }
        for distance in fit.residualDistances { #expect(distance < 1e-12) }
    }

    /// The four corners of the unit square, the last target 0.04 to the right. On this 2×2 design least squares is
    /// the effects model: a = mean(x' | x = 1) − mean(x' | x = 0) = 1.02, b = 1.04/2 − 1/2 = 0.02,
    /// c = mean(x') − a/2 − b/2 = −0.01; every point is left 0.01 off in x.
    private let squareSamples = [
        CalibrationSample(touch: (0, 0), target: (0, 0)), CalibrationSample(touch: (1, 0), target: (1, 0)),
        CalibrationSample(touch: (0, 1), target: (0, 1)), CalibrationSample(touch: (1, 1), target: (1.04, 1)),
    ]

    @Test func moreTargetsAreFittedByLeastSquares() throws {
        let fit = try CalibrationFit(squareSamples)
        let expected = [1.02, 0.02, -0.01, 0, 1, 0]
        for (value, want) in zip(fit.matrix.values, expected) { #expect(abs(value - want) < 1e-12) }
        let residualX = fit.residuals.map(\.x)
        for (value, want) in zip(residualX, [-0.01, 0.01, 0.01, -0.01]) { #expect(abs(value - want) < 1e-12) }
        for residual in fit.residuals { #expect(abs(residual.y) < 1e-12) }
    }

    @Test func residualsOnTheGlassUseTheAxisResolution() throws {
        let fit = try CalibrationFit(squareSamples)
        // 4096 units at 16 units/mm is 256 mm; 0.01 of the display, back through a = 1.02, is 0.01/1.02 of it.
        let axis = AbsInfo(minimum: 0, maximum: 4095, resolution: 16)
        let millimetres = try #require(fit.residualsInMillimetres(xAxis: axis, yAxis: axis))
        for value in millimetres { #expect(abs(value - 0.01 / 1.02 * 256) < 1e-9) }
        let units = fit.residualsInDeviceUnits(xAxis: axis, yAxis: axis)
        for value in units { #expect(abs(value - 0.01 / 1.02 * 4096) < 1e-9) }
    }

    @Test func noResolutionGivesNoMillimetres() throws {
        let fit = try CalibrationFit(squareSamples)
        let axis = AbsInfo(minimum: 0, maximum: 4095, resolution: 0)
        #expect(fit.residualsInMillimetres(xAxis: axis, yAxis: axis) == nil)
    }

    @Test func aResidualOverTheLimitIsAMisTap() throws {
        let fit = try CalibrationFit(squareSamples)
        let error = #expect(throws: CalibrationError.self) { try fit.checked(limit: 0.005) }
        guard case .residualTooLarge(let point, let residual, let limit)? = error else {
            Issue.record("expected a residual over the limit, got \(String(describing: error))")
            return
        }
        #expect(point == 1 && abs(residual - 0.01) < 1e-12 && limit == 0.005)
        #expect(throws: Never.self) { try fit.checked(limit: 0.02) }
    }

    @Test func twoTargetsAreTooFew() {
        #expect(throws: CalibrationError.tooFewTargets(2)) {
            try CalibrationFit([sample((0, 0), (0, 0)), sample((1, 1), (1, 1))])
        }
    }

    @Test func collinearTargetsFixNoMatrix() {
        #expect(throws: CalibrationError.collinearTargets) {
            try CalibrationFit([
                sample((0, 0), (0.1, 0.1)), sample((1, 0), (0.5, 0.5)), sample((0, 1), (0.9, 0.9)),
            ])
        }
    }

    @Test func collinearTapsAreABrokenAxis() {
        #expect(throws: CalibrationError.collinearTouches) {
            try CalibrationFit([
                sample((0.2, 0.5), (0.1, 0.1)), sample((0.4, 0.5), (0.9, 0.1)), sample((0.8, 0.5), (0.1, 0.9)),
            ])
        }
    }

    /// Targets at 1e300 of a display (a `--targets` list in the wrong units): their squares overflow to infinity,
    /// so the spread's ratio is NaN and the sums infinite. No finite matrix comes of them, and the fit must say so
    /// rather than hand out NaN (which no JSON configuration can hold and every later check lets through).
    @Test func targetsPastDoubleRangeFixNoMatrix() {
        #expect(throws: CalibrationError.targetsOutOfRange) {
            try CalibrationFit([
                sample((0.1, 0.1), (1e300, 0)), sample((0.9, 0.1), (0, 1e300)), sample((0.1, 0.9), (1e300, 1e300)),
            ])
        }
    }

    /// A residual that is NaN is not within any limit.
    @Test func aNaNResidualIsNoFit() throws {
        var fit = try CalibrationFit(squareSamples)
        fit.residuals[2] = (.nan, 0)
        #expect(throws: CalibrationError.self) { try fit.checked(limit: 0.05) }
    }
}
