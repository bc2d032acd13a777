import Testing

@testable import TouchJSON

/// Times, slots, taps and raw coordinates go into event lines through `TemplateCursor.integer`, two digits at a
/// time from a table of pairs; the digits must be Swift's own.
@Suite("Integers through a template cursor")
struct TemplateIntegerTests {
    func templated(_ value: Int64) -> String {
        var writer = JSONWriter()
        writer.writeTemplate(maximum: TemplateCursor.numberBytes) { $0.integer(value) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("every digit count and both signs, the extremes included, print as String(value)")
    func matchesDescription() {
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, 101, 999, 1000, 9999, 10_000, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Int64(bitPattern: state) >> (state % 63))
        }
        for value in values {
            #expect(templated(value) == String(value), "\(value)")
        }
    }

    /// Under 10,000 a number is written without a call (one or two pairs of digits from the table); around that
    /// bound and the hundreds, and below zero, it must print as the general path does.
    @Test("each value from -10,100 to 10,100, in one line after a literal, prints as String(value)")
    func smallValuesInALine() {
        for value in Int64(-10_100)...10_100 {
            var writer = JSONWriter()
            writer.writeTemplate(maximum: 64) { line in
                line.literal(#"{"n":"#)
                line.integer(value)
                line.literal("}")
            }
            #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"n":\#(value)}"#, "\(value)")
        }
    }
}
