/// The interactive calibration's state: the targets in order, the taps taken, and whether a new tap is believed.
///
/// A tap is checked against what the taps before it predict. With fewer than three there is no prediction, so a
/// tap only has to be away from the earlier ones (a second tap on the same spot is a double tap, not the next
/// target) and, for the third, off their line. From the third on, the exact (three taps) or least-squares (more)
/// fit of the taps so far maps the new tap into the display; farther than `threshold` from its target, it is a
/// mis-tap, and the same target is asked for again. Two mis-taps in a row at one target mean an earlier tap was
/// probably the wrong one: the session starts over.
///
/// | state | tap | result |
/// |---|---|---|
/// | n taps, n < 2 | within threshold of an earlier tap | `.rejected(.tooClose)` |
/// | n = 2 | on the line of the first two | `.rejected(.collinear)` |
/// | n ≥ 3 | mapped farther than threshold from target n | `.rejected(.offTarget)`, or `.restarted` the second time |
/// | otherwise | | `.accepted`, or `.finished(fit)` at the last target |
public struct CalibrationSession: Sendable {
    public let targets: [(x: Double, y: Double)]
    /// In display fractions, as the targets.
    public let threshold: Double
    public private(set) var taps: [(x: Double, y: Double)] = []
    private var rejectedInARow = 0

    public enum Rejection: Equatable, Sendable {
        case tooClose
        case collinear
        /// The tap mapped to `predicted` (display fractions), `distance` from the target.
        case offTarget(predicted: Double, Double, distance: Double)
    }

    public enum Outcome: Equatable, Sendable {
        case accepted
        case rejected(Rejection)
        case restarted
        case finished(CalibrationFit)
    }

    public init(targets: [(x: Double, y: Double)], threshold: Double = CalibrationFit.defaultResidualLimit) {
        self.targets = targets
        self.threshold = threshold
    }

    /// The index of the target to tap next.
    public var next: Int { taps.count }

    /// Takes a tap (device-normalized) at target `next`.
    public mutating func tap(_ touch: (x: Double, y: Double)) -> Outcome {
        if let rejection = check(touch) {
            rejectedInARow += 1
            if rejectedInARow >= 2, case .offTarget = rejection {
                taps = []
                rejectedInARow = 0
                return .restarted
            }
            return .rejected(rejection)
        }
        rejectedInARow = 0
        taps.append(touch)
        guard taps.count == targets.count else { return .accepted }
        do {
            return .finished(try CalibrationFit(samples(taps)))
        } catch {
            taps = []
            return .restarted
        }
    }

    private func check(_ touch: (x: Double, y: Double)) -> Rejection? {
        for earlier in taps where distance(earlier, touch) < threshold { return .tooClose }
        if taps.count == 2 && CalibrationFit.isCollinear(taps + [touch]) { return .collinear }
        guard taps.count >= 3, let fit = try? CalibrationFit(samples(taps)) else { return nil }
        let predicted = fit.matrix.apply(x: touch.x, y: touch.y)
        let off = distance(predicted, targets[taps.count])
        return off > threshold ? .offTarget(predicted: predicted.x, predicted.y, distance: off) : nil
    }

    private func samples(_ taps: [(x: Double, y: Double)]) -> [CalibrationSample] {
        zip(taps, targets).map { CalibrationSample(touch: $0, target: $1) }
    }

    private func distance(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double)) -> Double {
        ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }
}
