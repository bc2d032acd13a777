import Testing

@testable import TouchJSON

/// Coordinates are printed with two decimals on a path of their own (`appendHundredths`); it must print exactly
/// what the general fixed-point path prints, digit for digit, or replay output would change.
@Suite("Two-decimal numbers")
struct HundredthsTests {
    /// Through a template cursor (`TemplateCursor.hundredths`), as event lines print coordinates.
    func templated(_ value: Double) -> String {
        var writer = JSONWriter()
        writer.writeTemplate(maximum: TemplateCursor.numberBytes) { $0.hundredths(value) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

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
            #expect(templated(value) == expected, "\(value)")
        }
        // Not numbers JSON can hold: the template's word path turns them down, and the general path writes null.
        for value in [Double.nan, .infinity, -.infinity] { #expect(templated(value) == "null", "\(value)") }
    }

    @Test("every hundredth from -10,000.02 to 10,000.02, and the halves around the coordinate path's bounds")
    func coordinateRange() {
        for hundredths in -1_000_002...1_000_002 where hundredths % 31 == 0 || abs(hundredths) % 10_000 < 3 {
            let value = Double(hundredths) / 100
            #expect(templated(value) == printed(value, general: true), "\(value)")
        }
        for value in [9999.995, -9999.995, 9999.994999, 99.995, 0.995, -0.005, 0.005, 999.995, 9.995, 10_000] {
            #expect(templated(value) == printed(value, general: true), "\(value)")
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
                let general = printed(candidate, general: true)
                #expect(printed(candidate, general: false) == general, "\(candidate)")
                #expect(templated(candidate) == general, "\(candidate)")
            }
        }
    }

    @Test("0, 1, 3, 4 and 9 decimals through a template cursor print what the writer's general path prints")
    func templateDecimals() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for index in 0..<50_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            let value = (unit - 0.5) * 2 * [1.0, 10, 1000, 1e6, 1e9][index % 5]
            for places in [0, 1, 3, 4, 9] {
                var buffer = ByteBuffer(capacity: 64)
                JSONWriter.appendDouble(value, decimals: places, to: &buffer)
                var writer = JSONWriter()
                writer.writeTemplate(maximum: TemplateCursor.numberBytes) { $0.double(value, decimals: places) }
                #expect(writer.bytes == buffer.array, "\(value) with \(places) decimals")
            }
        }
        for value in [0.5, -0.5, 1.00005, -1.00005, 0.00001, .nan, .infinity, 1e300] {
            var buffer = ByteBuffer(capacity: 64)
            JSONWriter.appendDouble(value, decimals: 4, to: &buffer)
            var writer = JSONWriter()
            writer.writeTemplate(maximum: TemplateCursor.numberBytes) { $0.double(value, decimals: 4) }
            #expect(writer.bytes == buffer.array, "\(value)")
        }
    }

    @Test("integers through a template cursor: every length, both signs, the extremes, as Swift prints them")
    func templateIntegers() {
        var values: [Int64] = [0, -1, 9, 10, 99, 100, -100, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power]
        }
        for value in values {
            var writer = JSONWriter()
            writer.writeTemplate(maximum: TemplateCursor.numberBytes) { $0.integer(value) }
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
    }

    @Test("non-finite and huge coordinates through a template cursor print as the writer prints them")
    func templateExtremes() {
        for value in [Double.nan, .infinity, -.infinity, 1e300, -9.1e16, .greatestFiniteMagnitude] {
            var buffer = ByteBuffer(capacity: 64)
            JSONWriter.appendDouble(value, decimals: 2, to: &buffer)
            #expect(templated(value) == String(decoding: buffer.array, as: UTF8.self), "\(value)")
        }
        #expect(templated(.nan) == "null")
    }

    @Test("a template line longer than its room is refused before it writes past it")
    func templateRoomIsChecked() async {
        await #expect(processExitsWith: .failure) {
            var writer = JSONWriter()
            writer.writeTemplate(maximum: 8) { $0.literal("0123456789") }
        }
    }
}
