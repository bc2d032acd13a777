import TouchCore

/// evemu-record's own layout, `E: <seconds>.<6 digits> <4 hex> <4 hex> <value>` with single spaces (nearly every
/// line of every evemu file): its fixed widths are read at fixed offsets, and its decimal fields eight bytes at a
/// time, without the cursor's loops. It yields `EvemuEventLine`'s cursor's event for every line it takes, and nil
/// for any other line, which the cursor reads.
///
/// A line is read either once split (`parse`) or, in a run of lines read in one loop, before its end is known
/// (`parseThroughNewline`): every byte the fields take is not `\n`, so the line's `\n` fails a test of the fields
/// where the line ends early, as the line's end would.
enum EvemuRecordLayout {
    /// The event of the split line `base..<base + count`, which starts with `E:`.
    @inline(__always)
    static func parse(_ base: UnsafePointer<UInt8>, count: Int, holdsNoNul: Bool) -> InputEvent? {
        let end = base + count
        guard prefix(base, end: end), let (time, dot) = time(base, end: end),
            let (event, valueEnd) = fields(after: dot, end: end, time: time),
            endOrComment(valueEnd, end: end, holdsNoNul: holdsNoNul)
        else { return nil }
        return event
    }

    /// The line at `line` read before its end is known: its event and its `\n`, which must be before `end`; nil for
    /// any other line. `memo` keeps the time of the line before, which the lines of one frame share.
    @inline(__always)
    static func parseThroughNewline(
        _ line: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, memo: inout TimeMemo
    ) -> (event: InputEvent, newline: UnsafePointer<UInt8>)? {
        guard prefix(line, end: end) else { return nil }
        let time: EventTime
        let dot: UnsafePointer<UInt8>
        if let recalled = memo.recall(line) {
            (time, dot) = recalled
        } else {
            guard let read = Self.time(line, end: end) else { return nil }
            (time, dot) = read
            memo.remember(line, dot: dot, time: time)
        }
        guard let (event, valueEnd) = fields(after: dot, end: end, time: time),
            let newline = newline(after: valueEnd, end: end)
        else { return nil }
        return (event, newline)
    }

    /// The text of the time of the last line a run read (its seconds, fraction and space, when they fit in 16
    /// bytes), and that time. Two words compared cost far less than the time read again.
    struct TimeMemo {
        /// Bytes 3 to 10 of that line, all of them the time's (it has at least nine bytes).
        private var low: UInt64 = 0
        /// Bytes 11 to 18 of that line, only the time's kept (`highMask`): nothing remembered matches no line.
        private var high: UInt64 = 1
        private var highMask: UInt64 = 0
        private var secondDigits = 0
        private var time = EventTime.zero

        init() {}

        /// The time and the dot of the line at `line` when its time is the one remembered; the line has at least
        /// 23 bytes before the end of the text.
        @inline(__always)
        func recall(_ line: UnsafePointer<UInt8>) -> (time: EventTime, dot: UnsafePointer<UInt8>)? {
            guard Self.word(line + 3) == low, Self.word(line + 11) & highMask == high else { return nil }
            return (time, line + 3 + secondDigits)
        }

        /// Remembers the time of the line at `line`, read from its bytes (the seconds from byte 3 to `dot`).
        @inline(__always)
        mutating func remember(_ line: UnsafePointer<UInt8>, dot: UnsafePointer<UInt8>, time: EventTime) {
            let digits = dot - (line + 3)
            // Eight digits of seconds, the dot, six digits and the space fill both words; more do not fit.
            guard digits <= 8 else {
                highMask = 0
                high = 1
                return
            }
            low = Self.word(line + 3)
            highMask = digits == 8 ? ~0 : (1 &<< UInt64(8 * digits)) &- 1
            high = Self.word(line + 11) & highMask
            secondDigits = digits
            self.time = time
        }

        @inline(__always)
        private static func word(_ bytes: UnsafePointer<UInt8>) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
        }
    }

    /// `E: ` and room for the shortest line of the layout, `E: 0.000000 0000 0000 0` (23 bytes): the seconds' word
    /// (bytes 3 to 10) is before the end.
    @inline(__always)
    private static func prefix(_ base: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> Bool {
        // Little-endian, the first byte lowest: `E`, `:`, a space, then the seconds' first byte, left out.
        end - base >= 23
            && UInt32(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt32.self)) & 0xff_ffff
                == 0x20_3a45
    }

    /// The seconds from byte 3 and the fraction after them: the time, and where its dot is.
    @inline(__always)
    private static func time(
        _ base: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>
    ) -> (time: EventTime, dot: UnsafePointer<UInt8>)? {
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
        guard end - field >= 18, let micros = dotFraction(field),
            let time = EventTime.checked(seconds: seconds, microseconds: micros)
        else { return nil }
        return (time, field)
    }

    /// The type, code and value after the time's `.uuuuuu `, and where the value ends.
    @inline(__always)
    private static func fields(
        after dot: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, time: EventTime
    ) -> (event: InputEvent, valueEnd: UnsafePointer<UInt8>)? {
        guard end - dot >= 18, dot[17] == ASCII.space, let (type, code) = typeAndCode(dot + 8) else { return nil }
        var field = dot + 18
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
        guard let value = Int32(exactly: negative ? -magnitude : magnitude), isKnown(type: type, code: code) else {
            return nil
        }
        return (InputEvent(time: time, type: type, code: code, value: value), field)
    }

    /// `tttt cccc`: four hex digits, a space, four hex digits. Nearly every type and code is written in decimal
    /// digits alone, the type's first a `0` (`0003 0035`): the seven bytes after that `0` are read as one word,
    /// both numbers at once; anything else a number at a time. The caller knows the ten bytes are before the end.
    @inline(__always)
    private static func typeAndCode(_ digits: UnsafePointer<UInt8>) -> (type: UInt16, code: UInt16)? {
        if digits[0] == ASCII.zero {
            // Little-endian, the first byte lowest: XOR maps exactly 0x30...0x39 to 0...9, and the space to 0.
            let values =
                UInt64(littleEndian: UnsafeRawPointer(digits + 1).loadUnaligned(as: UInt64.self))
                ^ 0x3030_3030_2030_3030
            if values & 0xff00_0000 == 0 && DigitWord.notDigits(values) == 0 {
                // Each digit joined with the next: bytes 0, 2, 4 and 6 hold the pairs (the space's pair is the
                // type's last digit and 0).
                let pairs = (values &<< 4 | values &>> 8) & 0x00ff_00ff_00ff_00ff
                let type = (pairs & 0xff) &<< 4 | (pairs &>> 20) & 0x0f
                let code = (pairs &>> 24) & 0xff00 | (pairs &>> 48) & 0xff
                return (UInt16(truncatingIfNeeded: type), UInt16(truncatingIfNeeded: code))
            }
        }
        guard digits[4] == ASCII.space, let type = hex4(digits), let code = hex4(digits + 5) else { return nil }
        return (type, code)
    }

    /// The `\n` ending a line whose value ends at `start`, for the lines `endOrComment` takes once split: right
    /// there or after a `\r`, or after blanks and then maybe a `#` comment (which the caller knows holds no NUL).
    /// nil for anything else, or when that `\n` is not before `end`. evemu-record writes a tab and a comment: that
    /// is looked at here, any other ending by a call.
    @inline(__always)
    private static func newline(
        after start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>
    ) -> UnsafePointer<UInt8>? {
        // Little-endian: the tab is the lower byte.
        if end - start >= 2 && UInt16(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt16.self)) == 0x2309 {
            return ByteSearch.firstNewline(from: start + 2, to: end)
        }
        return otherNewline(after: start, end: end)
    }

    @inline(never)
    private static func otherNewline(
        after start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>
    ) -> UnsafePointer<UInt8>? {
        var position = start
        guard position < end else { return nil }
        if ASCII.isSpace(position[0]) {
            position += 1
            while position < end && ASCII.isSpace(position[0]) { position += 1 }
            guard position < end else { return nil }
            if position[0] == ASCII.hash { return ByteSearch.firstNewline(from: position + 1, to: end) }
        }
        if position[0] == ASCII.newline { return position }
        // A `\r` the split drops, before the `\n`; any other is the line's, which takes no `\r`.
        guard position[0] == ASCII.carriageReturn, end - position >= 2, position[1] == ASCII.newline else {
            return nil
        }
        return position + 1
    }

    /// `.uuuuuu ` (a dot, exactly six decimal digits, a space) read as one 64-bit word, and the digits' value.
    /// The caller knows the eight bytes are before the end.
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
    /// The caller knows the eight bytes are before the end.
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

    /// Exactly four hex digits: decimal digits alone as one 32-bit word, the rest a digit at a time.
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
