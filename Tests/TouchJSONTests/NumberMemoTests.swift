import Testing

@testable import TouchJSON

/// A writer keeps the bytes of two-decimal numbers it printed (`NumberMemo`) and copies them for the same Double
/// later: every line must still hold exactly what the writer's general path prints for each value, whatever was
/// kept before, in which slot, through which copy of the writer.
@Suite("Numbers kept and reused")
struct NumberMemoTests {
    /// The writer's general path, which the memo never reaches.
    func expected(_ value: Double) -> String {
        var buffer = ByteBuffer(capacity: 64)
        JSONWriter.appendDouble(value, decimals: 2, to: &buffer)
        return String(decoding: buffer.array, as: UTF8.self)
    }

    func line(_ writer: inout JSONWriter, _ body: (inout TemplateCursor) -> Void) -> String {
        writer.reset()
        writer.writeTemplate(maximum: 4 * TemplateCursor.numberBytes, body)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Equal as Doubles but not bit for bit (0 and -0), printed alike from different bits (0.004, 1.001), not
    /// kept (over sixteen bytes), not finite.
    static let edgeCases: [Double] = [
        0, -0.0, 0.004, -0.004, 1, 1.001, 12.5, -3, 0.05, -0.125, 1279.99, 9_999_999_999_999.99, -999_999_999_999.99,
        10_000_000_000_000.01, -9.1e16, 1e300, .greatestFiniteMagnitude, .nan, -.nan, .infinity, -.infinity,
        .leastNonzeroMagnitude,
    ]

    @Test("every pair of edge cases: a number kept, then another in the same slot on the same line and the next")
    func pairs() {
        var writer = JSONWriter()
        for first in Self.edgeCases {
            for second in Self.edgeCases {
                let kept = line(&writer) { line in
                    line.hundredths(first, keepingIn: 5)
                    line.hundredths(second, reusing: 5)
                    line.hundredths(first, reusing: 5)
                }
                #expect(kept == expected(first) + expected(second) + expected(first), "\(first) then \(second)")
                // Slot 69 is slot 5 again (slots are taken modulo the memo's size).
                let later = line(&writer) { line in
                    line.hundredths(second, reusing: 69)
                    line.hundredths(first, reusing: 69)
                }
                #expect(later == expected(second) + expected(first), "\(second) after \(first) was kept")
            }
        }
    }

    @Test("a new writer's slots, never written, print every value as the general path does")
    func untouchedSlots() {
        for value in Self.edgeCases {
            var writer = JSONWriter()
            #expect(line(&writer) { $0.hundredths(value, reusing: 17) } == expected(value), "\(value)")
        }
    }

    @Test("50,000 random keeps, reuses and moves between eight slots, through copies and growth of the writer")
    func randomSequence() {
        var state: UInt64 = 0x5DEE_CE66_D1CE_4E5B
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        // A small pool, so that slots often hold the very Double asked for, and often a neighbour of it.
        let pool =
            Self.edgeCases
            + (0..<24).map { _ in (Double(next() % 400_000) - 200_000) / 100 + [0, 0.001, 0.005][Int(next() % 3)] }
        var writer = JSONWriter(capacity: 16)
        for step in 0..<50_000 {
            let value = pool[Int(next() % UInt64(pool.count))]
            let slot = Int(next() % 8)
            if step % 997 == 0 {
                // A copy shares the storage until one of them writes: each must print right from then on.
                var copy = writer
                #expect(line(&copy) { $0.hundredths(value, reusing: slot) } == expected(value))
            }
            if step % 4099 == 0 { writer = JSONWriter(capacity: 16) }
            switch next() % 3 {
            case 0:
                #expect(line(&writer) { $0.hundredths(value, keepingIn: slot) } == expected(value), "\(value)")
            case 1:
                #expect(line(&writer) { $0.hundredths(value, reusing: slot) } == expected(value), "\(value)")
            default:
                let text = line(&writer) { line in
                    line.keep(slot, in: (slot + 1) % 8)
                    line.hundredths(value, reusing: (slot + 1) % 8)
                }
                #expect(text == expected(value), "\(value)")
            }
        }
    }

    @Test("a reused number still needs its room: a line too short for it is refused")
    func reuseRoomIsChecked() async {
        await #expect(processExitsWith: .failure) {
            var writer = JSONWriter()
            writer.writeTemplate(maximum: 64) { $0.hundredths(12.5, keepingIn: 0) }
            writer.writeTemplate(maximum: 8) { $0.hundredths(12.5, reusing: 0) }
        }
    }

    @Test("integers: every pair of edge cases through one slot, as Swift prints them, never from a Double's slot")
    func integers() {
        var values: [Int64] = [0, -1, 1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, -power]
        }
        // The bits of 12.5 and of 1.0 as integers: a Double kept with the same bits must not be copied for them.
        values += [Int64(bitPattern: (12.5).bitPattern), Int64(bitPattern: (1.0).bitPattern)]
        var writer = JSONWriter()
        for first in values {
            for second in values {
                let text = line(&writer) { line in
                    line.hundredths(12.5, keepingIn: 3)
                    line.hundredths(1.0, keepingIn: 4)
                    line.integer(first, memoIn: 3)
                    line.integer(second, memoIn: 3)
                    line.integer(first, memoIn: 67)
                }
                #expect(text == "12.51" + String(first) + String(second) + String(first), "\(first), \(second)")
            }
        }
        var fresh = JSONWriter()
        for value in values {
            #expect(line(&fresh) { $0.integer(value, memoIn: 9) } == String(value))
        }
    }

    /// A frame's time is kept for its lines; the next frame's time, in the same second, is the kept digits with the
    /// last six written over. Times from one digit to sixteen, in steps that cross seconds, digit counts and zeros.
    @Test("times through one slot, each a little after the last, print as Swift prints them")
    func risingTimes() {
        var writer = JSONWriter()
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for start: Int64 in [0, 999_000, 9_999_990, 1_284_823_491_716_666, 263_634_080, 99_999_999_999_000] {
            var time = start
            for _ in 0..<2_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                time += Int64(state >> 50)
                #expect(line(&writer) { $0.integer(time, memoIn: 0) } == String(time), "\(time)")
            }
        }
    }
}
