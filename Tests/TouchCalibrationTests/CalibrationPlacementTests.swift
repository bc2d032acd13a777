import Testing
import TouchCalibration
import TouchCore
import TouchTestKit

/// A rotated and calibrated device: the calibration on libinput's normalized square first, then the rotation
/// (libinput_device_config_calibration_set_matrix: the matrix applies to the normalized device coordinates; a
/// rotation is one more such matrix, 90° clockwise `0 -1 1 1 0 0`), each once.
struct CalibrationPlacementTests {
    /// A 4096-unit square device, calibration (0.9, 0, 0.05, 0, 1, 0), rotated 90°, onto 1000 × 500.
    /// Raw (1024, 2048) is (0.25, 0.5); calibrated (0.9·0.25 + 0.05, 0.5) = (0.275, 0.5); turned by 90°
    /// (x, y) → (1 − y, x): (0.5, 0.275); scaled: (500, 137.5). Rotating first would give (0.5, 0.25) →
    /// (0.5, 0.25) → (500, 125); calibrating twice (0.2975, 0.5) → (500, 148.75).
    @Test("calibration then rotation, by hand")
    func calibratedThenRotated() throws {
        let axis = AbsInfo(minimum: 0, maximum: 4095, resolution: 16)
        let mapping = try CoordinateMapping(
            xAxis: axis, yAxis: axis,
            settings: .init(
                outputSize: (1000, 500), rotation: 90, calibration: CalibrationMatrix(0.9, 0, 0.05, 0, 1, 0)))
        let point = mapping.map(x: 1024, y: 2048)
        #expect(abs(point.x - 500) < 1e-9 && abs(point.y - 137.5) < 1e-9, "\(point)")
    }

    static let error = CalibrationMatrix(1.04, 0.02, -0.03, -0.015, 0.96, 0.025)

    /// The fit of raw taps on a device whose rule rotates or mirrors it is the whole transform; the rule must get
    /// the error alone, so that touchd's mapping (the placement after it) is the whole transform again.
    @Test(
        "the matrix written for a rotated or mirrored device maps the taps onto the targets",
        arguments: [
            (0, false, false), (90, false, false), (180, false, false), (270, false, false),
            (90, true, false), (0, false, true), (270, true, true),
        ])
    func writtenMatrixUndoesThePlacement(rotation: Int, invertX: Bool, invertY: Bool) throws {
        let placement = try #require(CalibrationPlacement(rotation: rotation, invertX: invertX, invertY: invertY))
        let whole = CalibrationMatrix.rotation(degrees: rotation)!
            .after(CalibrationMatrix.inversion(x: invertX, y: invertY)).after(Self.error)
        let written = placement.calibration(forWhole: whole)
        for (value, expected) in zip(written.values, Self.error.values) { #expect(abs(value - expected) < 1e-12) }

        // Taps at the targets through touchd's own mapping with that rule land on the targets.
        let axis = AbsInfo(minimum: 0, maximum: 4095, resolution: 16)
        let mapping = try CoordinateMapping(
            xAxis: axis, yAxis: axis,
            settings: .init(
                outputSize: (1, 1), rotation: rotation, invertX: invertX, invertY: invertY, calibration: written))
        for target in CalibrationTargets.places {
            let n = CalibrationRecordings.inverse(whole, target)
            let point = mapping.map(deviceX: n.x * 4096, deviceY: n.y * 4096)
            #expect(abs(point.x - target.x) < 1e-9 && abs(point.y - target.y) < 1e-9, "\(target) → \(point)")
        }
    }

    @Test("a rotation touchd does not do has no placement")
    func unsupportedRotation() { #expect(CalibrationPlacement(rotation: 45) == nil) }
}
