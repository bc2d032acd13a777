import TouchCore

/// What touchd does to a device's positions after its calibration matrix: the rule's inversion, then its clockwise
/// rotation (`CoordinateMapping`'s order: calibration on libinput's normalized device square, then the
/// installation's placement, then the output).
///
/// The taps' fit is the whole transform, from the device's raw square to the display, because the raw positions
/// it is fitted to are the kernel's, before any matrix. Written as the `calibration` of a device that also has a
/// `rotate` or `invertX`/`invertY`, it would be followed by that placement a second time; what is written instead
/// is the part of the fit that comes before the placement, `placement⁻¹ ∘ fit`, so that touchd's whole mapping,
/// `placement ∘ calibration`, is the fit again.
public struct CalibrationPlacement: Equatable, Sendable {
    /// Clockwise degrees: 0, 90, 180 or 270.
    public let rotation: Int
    public let invertX: Bool
    public let invertY: Bool

    /// Nil for a rotation touchd does not do.
    public init?(rotation: Int = 0, invertX: Bool = false, invertY: Bool = false) {
        guard CalibrationMatrix.rotation(degrees: rotation) != nil else { return nil }
        self.rotation = rotation
        self.invertX = invertX
        self.invertY = invertY
    }

    public var isIdentity: Bool { rotation == 0 && !invertX && !invertY }

    /// The placement as one matrix: the inversion, then the rotation.
    public var matrix: CalibrationMatrix {
        CalibrationMatrix.rotation(degrees: rotation)!.after(inversion)
    }

    /// The calibration that, followed by this placement, is `whole`: the inversion (its own inverse) after the
    /// opposite rotation, after `whole`.
    public func calibration(forWhole whole: CalibrationMatrix) -> CalibrationMatrix {
        let undoRotation = CalibrationMatrix.rotation(degrees: (360 - rotation) % 360)!
        return inversion.after(undoRotation).after(whole)
    }

    private var inversion: CalibrationMatrix { CalibrationMatrix.inversion(x: invertX, y: invertY) }
}
