/// A number as a message quotes it: as JSON would write it, so `0` reads `0` and not `0.0` (the parser keeps every
/// number as a Double).
public enum NumberText {
    public static func text(_ value: Double) -> String {
        // Whole numbers up to 2^53 are exact in a Double and print as integers; anything else as Swift's shortest
        // round-trip form (0.5, 1e+300).
        if value.isFinite, value.rounded() == value, value.magnitude <= 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return String(value)
    }
}
