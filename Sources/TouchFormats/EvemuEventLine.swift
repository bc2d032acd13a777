import TouchCore

/// The fast path for evemu's event lines: `E: sec.usec type code value` in its plain form (decimal seconds, a
/// fraction, hex type and code of up to four digits, a decimal value with an optional `-`, blanks between), read
/// straight from the line's bytes with no field slices and no allocation.
///
/// It accepts a subset of what `EvemuLineParser`'s general path accepts, and yields the same event for it; any
/// line it does not take whole (a comment, a `+` or `0x`, a long field, a bad number, a NUL) returns nil and
/// goes the general way, which reads it or names what is wrong. The fuzz target `stream` checks the two agree.
enum EvemuEventLine {
    static func parse(_ line: ArraySlice<UInt8>) -> InputEvent? {
        line.withUnsafeBufferPointer { parse($0) }
    }

    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> InputEvent? {
        var scanner = Scanner(line, position: 2)
        guard line.count > 2, line[0] == UInt8(ascii: "E"), line[1] == ASCII.colon,
            let time = scanner.time(), scanner.blanks(), let type = scanner.hex16(), scanner.blanks(),
            let code = scanner.hex16(), scanner.blanks(), let value = scanner.int32(), scanner.atEndAfterBlanks(),
            EventCodeLimits.isKnown(type: type, code: code)
        else { return nil }
        return InputEvent(time: time, type: type, code: code, value: value)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int) {
            self.bytes = bytes
            self.position = position
        }

        /// Blanks before the time (there may be none, as in the general path) and the time itself.
        mutating func time() -> EventTime? {
            skipBlanks()
            // Up to 18 digits cannot overflow Int64; longer (leading zeros) is for the general path.
            var seconds: Int64 = 0
            guard let count = digits(upTo: 18, into: &seconds), count > 0, byte == ASCII.dot else { return nil }
            position += 1
            // Digits past the sixth are not significant (as in NumberParsing.timestamp), but must be digits.
            var micros: Int64 = 0
            var fraction = 0
            while let next = byte, ASCII.isDigit(next) {
                if fraction < 6 {
                    micros = micros * 10 + Int64(next &- ASCII.zero)
                    fraction += 1
                }
                position += 1
            }
            guard fraction > 0 else { return nil }
            for _ in fraction..<6 { micros *= 10 }
            return EventTime.checked(seconds: seconds, microseconds: micros)
        }

        /// One or more blanks.
        mutating func blanks() -> Bool {
            guard let next = byte, ASCII.isSpace(next) else { return false }
            skipBlanks()
            return true
        }

        /// One to four hex digits, no prefix.
        mutating func hex16() -> UInt16? {
            var value: UInt16 = 0
            var count = 0
            while let next = byte, let digit = Self.hexDigit(next) {
                guard count < 4 else { return nil }
                value = value << 4 | UInt16(digit)
                count += 1
                position += 1
            }
            return count > 0 ? value : nil
        }

        /// An optional `-` and one to ten decimal digits that fit in 32 bits.
        mutating func int32() -> Int32? {
            let negative = byte == ASCII.minus
            if negative { position += 1 }
            var value: Int64 = 0
            guard let count = digits(upTo: 10, into: &value), count > 0 else { return nil }
            return Int32(exactly: negative ? -value : value)
        }

        mutating func atEndAfterBlanks() -> Bool {
            skipBlanks()
            return position == bytes.count
        }

        private var byte: UInt8? { position < bytes.count ? bytes[position] : nil }

        private mutating func skipBlanks() {
            while let next = byte, ASCII.isSpace(next) { position += 1 }
        }

        /// Decimal digits into `value`; nil when there are more than `limit` of them.
        private mutating func digits(upTo limit: Int, into value: inout Int64) -> Int? {
            var count = 0
            while let next = byte, ASCII.isDigit(next) {
                guard count < limit else { return nil }
                value = value * 10 + Int64(next &- ASCII.zero)
                count += 1
                position += 1
            }
            return count
        }

        private static func hexDigit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
            default: nil
            }
        }
    }
}
