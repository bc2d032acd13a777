import TouchCore

/// The fast path for evemu's event lines: `E: sec.usec type code value` in its plain form (decimal seconds, a
/// fraction, hex type and code of up to four digits, a decimal value with an optional `-`, blanks between, maybe
/// a comment after), read straight from the line's bytes with no field slices and no allocation.
///
/// It accepts a subset of what `EvemuLineParser`'s general path accepts, and yields the same event for it; any
/// line it does not take whole (a `+` or `0x`, a long field, a bad number, a NUL) returns nil and goes the
/// general way, which reads it or names what is wrong. The fuzz target `stream` checks the two agree.
///
/// `holdsNoNul` says the caller already knows the line has no NUL byte (its reader looked once for one in a whole
/// buffer or file): then a comment need not be searched for one, line by line.
enum EvemuEventLine {
    static func parse(_ line: ArraySlice<UInt8>, holdsNoNul: Bool = false) -> InputEvent? {
        line.withUnsafeBufferPointer { parse($0, holdsNoNul: holdsNoNul) }
    }

    @inline(__always)
    static func parse(_ line: UnsafeBufferPointer<UInt8>, holdsNoNul: Bool = false) -> InputEvent? {
        guard line.count > 2, let base = line.baseAddress, base[0] == UInt8(ascii: "E"), base[1] == ASCII.colon
        else { return nil }
        if let event = RecordLayout.parse(base, count: line.count, holdsNoNul: holdsNoNul) { return event }
        return parseByCursor(base, count: line.count)
    }

    /// The plain event line at `line` (evemu-record's layout) read before its end is known, for a reader that takes
    /// many lines in one loop: its event and its `\n`, which must be before `end`; nil for any other line, which the
    /// reader splits and reads as usual. The line is taken exactly when `parse` takes it once split (the fuzz target
    /// `stream` compares both ways). `line..<end` must hold no NUL byte: a comment is not searched for one.
    @inline(__always)
    static func parseThroughNewline(
        _ line: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>
    ) -> (event: InputEvent, newline: UnsafePointer<UInt8>)? {
        guard let (event, valueEnd) = RecordLayout.fields(line, end: end),
            let newline = RecordLayout.newline(after: valueEnd, end: end)
        else { return nil }
        return (event, newline)
    }

    /// Any other layout the fast path takes (it is inlined where lines are read; this is not, being rare).
    @inline(never)
    private static func parseByCursor(_ base: UnsafePointer<UInt8>, count: Int) -> InputEvent? {
        var cursor = Cursor(base: base, end: count, position: 2)
        cursor.skipBlanks()
        // Seconds: up to 18 digits cannot overflow Int64; longer (leading zeros) is for the general path.
        let (seconds, secondDigits) = cursor.decimal(limit: 18)
        guard secondDigits > 0, cursor.at(ASCII.dot) else { return nil }
        cursor.position += 1
        // Digits past the sixth are not significant (as in NumberParsing.timestamp), but must be digits.
        let (fraction, fractionDigits) = cursor.decimal(limit: 6)
        guard fractionDigits > 0 else { return nil }
        while cursor.digit != nil { cursor.position += 1 }
        var micros = fraction
        for _ in fractionDigits..<6 { micros &*= 10 }
        guard cursor.blanks(), let type = cursor.hex16(), cursor.blanks(), let code = cursor.hex16(), cursor.blanks()
        else { return nil }
        let negative = cursor.at(ASCII.minus)
        if negative { cursor.position += 1 }
        let (magnitude, valueDigits) = cursor.decimal(limit: 10)
        guard valueDigits > 0, let value = Int32(exactly: negative ? -magnitude : magnitude),
            cursor.atEndOrComment(), EventCodeLimits.isKnown(type: type, code: code),
            let time = EventTime.checked(seconds: seconds, microseconds: micros)
        else { return nil }
        return InputEvent(time: time, type: type, code: code, value: value)
    }

    /// A position in the line; reads past the end see nothing.
    private struct Cursor {
        let base: UnsafePointer<UInt8>
        let end: Int
        var position: Int

        func at(_ byte: UInt8) -> Bool { position < end && base[position] == byte }

        /// The digit at the position, if it is one.
        var digit: Int64? {
            guard position < end else { return nil }
            let value = base[position] &- ASCII.zero
            return value < 10 ? Int64(value) : nil
        }

        mutating func skipBlanks() {
            while position < end && ASCII.isSpace(base[position]) { position += 1 }
        }

        /// One or more blanks.
        mutating func blanks() -> Bool {
            let start = position
            skipBlanks()
            return position > start
        }

        /// Up to `limit` decimal digits and how many there were; more than `limit` reads as none, unless the
        /// limit is the fraction's (its later digits are checked by the caller).
        mutating func decimal(limit: Int) -> (value: Int64, digits: Int) {
            var value: Int64 = 0
            var count = 0
            while count < limit, let digit {
                value = value &* 10 &+ digit
                count += 1
                position += 1
            }
            if count == limit && limit != 6 && digit != nil { return (0, 0) }
            return (value, count)
        }

        /// One to four hex digits, no prefix.
        mutating func hex16() -> UInt16? {
            var value: UInt16 = 0
            let start = position
            while position < end, let digit = Self.hexDigit(base[position]) {
                guard position - start < 4 else { return nil }
                value = value &<< 4 | UInt16(digit)
                position += 1
            }
            return position > start ? value : nil
        }

        /// Blanks to the end, or to a `#` comment after a blank, which the general path skips as well (evemu-record
        /// ends each event line with one) unless it holds a NUL: that the general path reports, wherever it is.
        mutating func atEndOrComment() -> Bool {
            guard blanks() else { return position == end }
            guard position < end else { return true }
            return base[position] == ASCII.hash
                && ByteSearch.first(0, in: UnsafeBufferPointer(start: base, count: end), from: position, to: end) == end
        }

        private static func hexDigit(_ byte: UInt8) -> UInt8? {
            let decimal = byte &- UInt8(ascii: "0")
            if decimal < 10 { return decimal }
            let letter = (byte | 0x20) &- UInt8(ascii: "a")
            return letter < 6 ? letter &+ 10 : nil
        }
    }

    /// evemu-record's own layout, `E: <seconds>.<6 digits> <4 hex> <4 hex> <value>` with single spaces (nearly
    /// every line of every evemu file): its fixed widths are read at fixed offsets, and its decimal fields eight
    /// bytes at a time, without the cursor's loops. It yields the cursor's event for every line it takes, and nil
    /// for any other line, which the cursor reads.
    private enum RecordLayout {
        @inline(__always)
        static func parse(_ base: UnsafePointer<UInt8>, count: Int, holdsNoNul: Bool) -> InputEvent? {
            let end = base + count
            guard let (event, valueEnd) = fields(base, end: end),
                endOrComment(valueEnd, end: end, holdsNoNul: holdsNoNul)
            else { return nil }
            return event
        }

        /// The event of a line of the layout from `base` (`E: ` and the four fields), and where its value ends;
        /// nil for any other line. Reads no byte at `end` or after, and takes only bytes that are not `\n`, so that
        /// `end` may be a line's end or any later end of the text: where the line ends before it, the line's `\n`
        /// fails a test of the fields, as the line's end would.
        @inline(__always)
        static func fields(
            _ base: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>
        ) -> (event: InputEvent, valueEnd: UnsafePointer<UInt8>)? {
            // The shortest line of the layout, `E: 0.000000 0000 0000 0`, has 23 bytes: the seconds' word (bytes 3
            // to 10) is the line's.
            guard end - base >= 23, base[0] == UInt8(ascii: "E"), base[1] == ASCII.colon, base[2] == ASCII.space
            else { return nil }
            var seconds: Int64
            var field: UnsafePointer<UInt8>
            let secondsWord = DigitWord(base + 3)
            if secondsWord.digitCount < 8 {
                guard secondsWord.digitCount > 0 else { return nil }
                seconds = secondsWord.value
                field = base + 3 + secondsWord.digitCount
            } else {
                // Eight digits or more (absolute times): up to 18 cannot overflow; longer (leading zeros) is the
                // cursor's.
                seconds = 0
                field = base + 3
                while field < end, case let digit = field[0] &- ASCII.zero, digit < 10 {
                    seconds = seconds &* 10 &+ Int64(digit)
                    field += 1
                }
                guard field - (base + 3) <= 18 else { return nil }
            }
            // The rest is at least `.uuuuuu tttt cccc v`: 18 bytes and a digit.
            guard end - field >= 18, let micros = dotFraction(field), field[12] == ASCII.space,
                field[17] == ASCII.space, let type = hex4(field + 8), let code = hex4(field + 13)
            else { return nil }
            field += 18
            let negative = field < end && field[0] == ASCII.minus
            if negative { field += 1 }
            var magnitude: Int64 = 0
            if end - field >= 8, case let valueWord = DigitWord(field), valueWord.digitCount < 8 {
                // Seven digits at most: an Int32 either way.
                guard valueWord.digitCount > 0 else { return nil }
                magnitude = valueWord.value
                field += valueWord.digitCount
            } else {
                let valueStart = field
                while field < end, case let digit = field[0] &- ASCII.zero, digit < 10 {
                    guard field - valueStart < 10 else { return nil }
                    magnitude = magnitude &* 10 &+ Int64(digit)
                    field += 1
                }
                guard field > valueStart else { return nil }
            }
            guard let value = Int32(exactly: negative ? -magnitude : magnitude), isKnown(type: type, code: code),
                let time = EventTime.checked(seconds: seconds, microseconds: micros)
            else { return nil }
            return (InputEvent(time: time, type: type, code: code, value: value), field)
        }

        /// The `\n` ending a line whose value ends at `start`, for the lines `endOrComment` takes once split: right
        /// there or after a `\r`, or after blanks and then maybe a `#` comment (evemu-record writes a tab and one,
        /// which the caller knows holds no NUL). nil for anything else, or when that `\n` is not before `end`.
        @inline(__always)
        static func newline(after start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
            var position = start
            guard position < end else { return nil }
            if ASCII.isSpace(position[0]) {
                position += 1
                while position < end && ASCII.isSpace(position[0]) { position += 1 }
                guard position < end else { return nil }
                if position[0] == ASCII.hash {
                    let rest = end - position
                    let found = ByteSearch.first(
                        ASCII.newline, in: UnsafeBufferPointer(start: position, count: rest), from: 1, to: rest)
                    return found < rest ? position + found : nil
                }
            }
            if position[0] == ASCII.newline { return position }
            // A `\r` the split drops, before the `\n`; any other is the line's, which takes no `\r`.
            guard position[0] == ASCII.carriageReturn, end - position >= 2, position[1] == ASCII.newline else {
                return nil
            }
            return position + 1
        }

        /// `.uuuuuu ` (a dot, exactly six decimal digits, a space) read as one 64-bit word, and the digits' value.
        /// The caller knows the eight bytes are the line's.
        @inline(__always)
        private static func dotFraction(_ bytes: UnsafePointer<UInt8>) -> Int64? {
            // Little-endian: the dot is the lowest byte. XOR leaves 0 for the dot and the space, and maps exactly
            // 0x30...0x39 to 0...9.
            let expected: UInt64 = 0x2030_3030_3030_302e
            let values = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self)) ^ expected
            guard values & 0xff00_0000_0000_00ff == 0, DigitWord.notDigits(values) == 0 else { return nil }
            // The dot's zero byte made the lowest: two leading zero digits and the six.
            return DigitWord.eightDigits(values &<< 8)
        }

        /// The decimal digits at the start of eight bytes: how many (8 when all are) and, for fewer, their value.
        /// The caller knows the eight bytes are the line's.
        private struct DigitWord {
            let digitCount: Int
            /// The eight bytes less `0` each: a digit byte is its value 0...9, any other byte 10 or more.
            private let values: UInt64

            @inline(__always)
            init(_ bytes: UnsafePointer<UInt8>) {
                // Little-endian: the first byte is the lowest. XOR maps exactly 0x30...0x39 to 0...9.
                values = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self)) ^ Self.zeros
                digitCount = Self.notDigits(values).trailingZeroBitCount >> 3
            }

            /// The digits' value, when there are fewer than eight: shifted to the word's top, zeros before them,
            /// they read as an eight-digit number.
            @inline(__always)
            var value: Int64 { Self.eightDigits(values &<< UInt64(64 - 8 * digitCount)) }

            /// The top bit of each byte of `values` that is 10 or more: seven low bits plus 0x76 reach 0x80 from 10
            /// on and never carry out of the byte; a byte that had its top bit is 10 or more too.
            @inline(__always)
            static func notDigits(_ values: UInt64) -> UInt64 {
                let high: UInt64 = 0x8080_8080_8080_8080
                return (((values & ~high) &+ 0x7676_7676_7676_7676) | values) & high
            }

            /// Eight bytes of 0...9 each, the most significant the lowest, as one number: pairs, then fours, then
            /// all eight.
            @inline(__always)
            static func eightDigits(_ digits: UInt64) -> Int64 {
                var word = (digits &* (1 &+ (10 << 8))) >> 8
                word = ((word & 0x00ff_00ff_00ff_00ff) &* (1 &+ (100 << 16))) >> 16
                word = ((word & 0x0000_ffff_0000_ffff) &* (1 &+ (10_000 << 32))) >> 32
                return Int64(word)
            }

            private static let zeros: UInt64 = 0x3030_3030_3030_3030
        }

        /// `EventCodeLimits.isKnown`, with the types of nearly every event line answered here without a call:
        /// `EV_ABS` up to `ABS_MAX`, `EV_SYN` up to 0x0f (EventCodeLimits's bound).
        @inline(__always)
        private static func isKnown(type: UInt16, code: UInt16) -> Bool {
            switch type {
            case EventType.abs: code <= AbsCode.max
            case EventType.syn: code <= 0x0f
            default: EventCodeLimits.isKnown(type: type, code: code)
            }
        }

        /// Exactly four hex digits. Types and codes are nearly always written in decimal digits alone (`0003`,
        /// `0035`): those are read as one 32-bit word, the rest a digit at a time.
        @inline(__always)
        private static func hex4(_ digits: UnsafePointer<UInt8>) -> UInt16? {
            let word = UInt32(littleEndian: UnsafeRawPointer(digits).loadUnaligned(as: UInt32.self))
            // Each byte 0x30...0x39: its high nibble is 3, and stays 3 with 6 added (no carry leaves a byte).
            if word & 0xf0f0_f0f0 == 0x3030_3030 && (word &+ 0x0606_0606) & 0xf0f0_f0f0 == 0x3030_3030 {
                // The first digit is the lowest byte: nibbles paired into bytes 0 and 2, then the pairs joined.
                let nibbles = word & 0x0f0f_0f0f
                let pairs = (nibbles << 4 | nibbles >> 8) & 0x00ff_00ff
                return UInt16(truncatingIfNeeded: (pairs & 0xff) << 8 | pairs >> 16)
            }
            var value: UInt16 = 0
            for offset in 0..<4 {
                let byte = digits[offset]
                var digit = byte &- ASCII.zero
                if digit >= 10 {
                    digit = (byte | 0x20) &- UInt8(ascii: "a")
                    guard digit < 6 else { return nil }
                    digit &+= 10
                }
                value = value &<< 4 | UInt16(digit)
            }
            return value
        }

        /// The line ends here, or blanks follow and then the end or a `#` comment without a NUL (as the cursor's
        /// `atEndOrComment`). evemu-record's comment follows one tab: that is looked at first.
        @inline(__always)
        private static func endOrComment(
            _ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, holdsNoNul: Bool
        ) -> Bool {
            guard start < end else { return true }
            guard ASCII.isSpace(start[0]) else { return false }
            var position = start + 1
            while position < end && ASCII.isSpace(position[0]) { position += 1 }
            if position == end { return true }
            guard position[0] == ASCII.hash else { return false }
            let rest = end - position
            return holdsNoNul
                || ByteSearch.first(0, in: UnsafeBufferPointer(start: position, count: rest), from: 0, to: rest) == rest
        }
    }
}
