/// Which jitter filter a device's finger positions go through, and its parameters (docs/decoding.md, "Jitter").
///
/// Positions are filtered in device units, per finger, between the decoder and the coordinate mapping; `raw_x` and
/// `raw_y` stay the kernel's. A move whose filtered position did not change is not reported.
public enum JitterFilter: Equatable, Sendable, CustomStringConvertible {
    /// Every kernel position is passed on as it is.
    case off
    /// What libinput does to each kind of panel, and no lag where libinput has none (FuzzHysteresis,
    /// MtdevDefuzz): where libinput applies its hysteresis (multitouch, a fuzz of 2 or more on both axes), the
    /// same (an ellipse of half the fuzz); protocol A first goes through mtdev's defuzz, and gets nothing more
    /// where libinput's hysteresis does not apply; any other panel (libinput does not filter it) gets a
    /// hysteresis of each axis's fuzz (declared, or mtdev's default, range / 250) released to the kernel's
    /// position on motion. `fuzz` overrides the axes' fuzz for both axes (device units).
    case fuzz(override: Int32?)
    /// The 1€ filter (Casiez, Roussel, Vogel, CHI 2012), per axis: an exponential smoothing whose cutoff rises
    /// with the finger's speed.
    case oneEuro(OneEuroParameters)

    /// The default for every device.
    public static let standard = JitterFilter.fuzz(override: nil)

    /// The names `touchd replay --filter` and the configuration take.
    public static let names = ["off", "fuzz", "one-euro"]

    public var name: String {
        switch self {
        case .off: "off"
        case .fuzz: "fuzz"
        case .oneEuro: "one-euro"
        }
    }

    public var description: String {
        switch self {
        case .off: "off"
        case .fuzz(let override): override.map { "fuzz (fuzz \($0))" } ?? "fuzz"
        case .oneEuro(let p): "one-euro (minCutoff \(p.minCutoff) Hz, beta \(p.beta), dCutoff \(p.derivativeCutoff) Hz)"
        }
    }
}

/// The 1€ filter's three parameters, speeds in device units per second.
public struct OneEuroParameters: Equatable, Sendable {
    /// The cutoff frequency of a still finger, in Hz: lower removes more jitter and adds more lag when slow.
    public var minCutoff: Double
    /// How fast the cutoff rises with speed, in Hz per (device unit per second): higher means less lag when fast.
    public var beta: Double
    /// The cutoff frequency of the speed estimate, in Hz.
    public var derivativeCutoff: Double

    /// Defaults chosen on the shared recordings (docs/decoding.md, "Jitter: measured").
    public static let standard = OneEuroParameters(minCutoff: 1.0, beta: 0.2, derivativeCutoff: 5.0)

    public init(minCutoff: Double, beta: Double, derivativeCutoff: Double) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }

    /// Cutoffs must be positive and finite, beta finite and not negative: the parameter that is not, and why.
    public var problem: (parameter: String, message: String)? {
        if !(minCutoff > 0 && minCutoff.isFinite) { return ("minCutoff", "minCutoff must be a positive number of Hz") }
        if !(derivativeCutoff > 0 && derivativeCutoff.isFinite) {
            return ("dCutoff", "dCutoff must be a positive number of Hz")
        }
        if !(beta >= 0 && beta.isFinite) { return ("beta", "beta must be a number, 0 or more") }
        return nil
    }
}
