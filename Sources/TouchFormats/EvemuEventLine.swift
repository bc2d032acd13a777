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
        if let event = EvemuRecordLayout.parse(base, count: line.count, holdsNoNul: holdsNoNul) { return event }
        return parseByCursor(base, count: line.count)
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
}
