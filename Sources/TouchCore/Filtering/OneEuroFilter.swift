/// The 1€ filter for one axis of one finger (Casiez, Roussel, Vogel, "1€ Filter: A Simple Speed-based Low-pass
/// Filter for Noisy Input in Interactive Systems", CHI 2012): an exponential smoothing
/// `x̂ᵢ = α·xᵢ + (1 − α)·x̂ᵢ₋₁` whose `α = 1 / (1 + τ/Tₑ)`, `τ = 1 / (2π·f꜀)`, depends on the sampling interval
/// `Tₑ` (here the time between the finger's frames, from the events' times) and on a cutoff
/// `f꜀ = minCutoff + beta·|speed|`, the speed itself smoothed the same way with `derivativeCutoff`.
/// The speed is taken from the raw values, as the authors' reference code does.
public struct OneEuroAxis: Equatable, Sendable {
    public private(set) var filtered: Double
    private var previousRaw: Double
    private var smoothedSpeed: Double = 0

    /// Starts at the finger's first position: the first output is the input.
    public init(start value: Double) {
        filtered = value
        previousRaw = value
    }

    /// The smoothing factor for a cutoff (Hz) and a sampling interval (s).
    public static func alpha(cutoff: Double, interval: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / interval)
    }

    /// Takes the next raw value, `interval` seconds after the previous one (> 0), and returns the filtered value.
    public mutating func update(_ value: Double, interval: Double, parameters: OneEuroParameters) -> Double {
        let speed = (value - previousRaw) / interval
        let speedAlpha = Self.alpha(cutoff: parameters.derivativeCutoff, interval: interval)
        smoothedSpeed = speedAlpha * speed + (1 - speedAlpha) * smoothedSpeed
        let cutoff = parameters.minCutoff + parameters.beta * abs(smoothedSpeed)
        let alpha = Self.alpha(cutoff: cutoff, interval: interval)
        filtered = alpha * value + (1 - alpha) * filtered
        previousRaw = value
        return filtered
    }
}
