import Testing

@testable import TouchJSON

/// Coordinates are printed with two decimals on a path of their own (`appendHundredths`); it must print exactly
/// what the general fixed-point path prints, digit for digit, or replay output would change.
@Suite("Two-decimal numbers")
struct HundredthsTests {
    func printed(_ value: Double, general: Bool) -> String {
        var buffer = ByteBuffer(capacity: 64)
        if general {
            JSONWriter.appendFixedPoint(value, places: 2, to: &buffer)
        } else {
            JSONWriter.appendHundredths(value, to: &buffer)
        }
        return String(decoding: buffer.array, as: UTF8.self)
    }

    @Test("hand-checked values: halves round away from zero, trailing zeros go, the sign survives")
    func handChecked() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (12.5, "12.5"), (-3, "-3"), (0.05, "0.05"), (-0.05, "-0.05"), (0.125, "0.13"),
            (-0.125, "-0.13"), (1.999, "2"), (-0.004, "0"), (100.10, "100.1"), (1279.99, "1279.99"),
        ]
        for (value, expected) in cases {
            #expect(printed(value, general: false) == expected, "\(value)")
            #expect(printed(value, general: true) == expected, "\(value)")
        }
    }

    @Test("200,000 values across magnitudes: the fast path prints what the general path prints")
    func matchesGeneralPath() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            let magnitude = [1.0, 10, 1000, 1e6, 1e12, 1e17, 1e19][index % 7]
            let value = (unit - 0.5) * 2 * magnitude
            // Halves of a hundredth, where rounding decides (where a hundredth is still representable).
            let half = abs(value) < 1e15 ? (Double(Int64(value * 100)) + 0.5) / 100 : value
            for candidate in [value, half, -half] {
                #expect(printed(candidate, general: false) == printed(candidate, general: true), "\(candidate)")
            }
        }
    }
}
