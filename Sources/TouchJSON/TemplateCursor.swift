/// Writes one template line (literal keys and punctuation, values between them) into room the writer made for it
/// once (`JSONWriter.writeTemplate`): each write is a bounds test and a copy, with no capacity or uniqueness test
/// and no call per literal. A write past the room traps, so a wrong bound is a crash, never a corrupted buffer.
public struct TemplateCursor {
    @usableFromInline var next: UnsafeMutablePointer<UInt8>
    @usableFromInline let end: UnsafeMutablePointer<UInt8>
    /// The writer's numbers printed lately (`NumberMemo`), kept from line to line.
    @usableFromInline let memo: NumberMemo

    @usableFromInline
    init(next: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>, memo: NumberMemo) {
        self.next = next
        self.end = end
        self.memo = memo
    }

    /// The most bytes one number takes: an integer's 20 digits and sign, or a double's shortest form.
    public static let numberBytes = 32

    /// Literal JSON text: punctuation and keys with their quotes, colon and comma.
    @inlinable @inline(__always)
    public mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            precondition(end - next >= bytes.count, "template line longer than its reserved room")
            // A copy, not `update(from:count:)`, which tests whether the two overlap: a literal is in the binary,
            // the line in the writer's buffer. With the literal's address and length known here, the copy is a
            // store or two.
            if let source = bytes.baseAddress {
                UnsafeMutableRawPointer(next).copyMemory(from: source, byteCount: bytes.count)
            }
            next += bytes.count
        }
    }

    /// Numbers under 10,000 (a slot, a finger, a tap count, a raw coordinate: several a line) are written here,
    /// one or two pairs of digits, with no call; under 10^8 (a time since a down) as one word of eight digits.
    @inlinable @inline(__always)
    public mutating func integer(_ value: Int64) {
        let small = UInt64(bitPattern: value)
        guard small < 10_000 else { return mediumInteger(value) }
        precondition(end - next >= 4, "template line longer than its reserved room")
        let number = Int(truncatingIfNeeded: small)
        guard number >= 100 else { return belowHundred(number) }
        let high = number / 100
        belowHundred(high)
        let pair = 2 &* (number &- high &* 100)
        let pairs = Self.digitPairs.utf8Start
        next[0] = pairs[pair]
        next[1] = pairs[pair &+ 1]
        next += 2
    }

    /// A number from 10,000 to 10^8, as eight digits in one word whose leading zeros a shift drops; others a call.
    @inlinable @inline(__always)
    mutating func mediumInteger(_ value: Int64) {
        let magnitude = UInt64(bitPattern: value)
        guard magnitude < 100_000_000 else {
            next = Self.printed(value, on: self)
            return
        }
        precondition(end - next >= 8, "template line longer than its reserved room")
        let digits = magnitude < 1_000_000 ? (magnitude < 100_000 ? 5 : 6) : (magnitude < 10_000_000 ? 7 : 8)
        let word = Self.eightDigits(Int(truncatingIfNeeded: magnitude)) &>> UInt64(8 &* (8 &- digits))
        UnsafeMutableRawPointer(next).storeBytes(of: word.littleEndian, as: UInt64.self)
        next += digits
    }

    /// One digit, or two from the table of pairs, for `number` in 0..<100, in room the caller tested.
    @inlinable @inline(__always)
    mutating func belowHundred(_ number: Int) {
        if number < 10 {
            next.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number)
            next += 1
        } else {
            let pairs = Self.digitPairs.utf8Start
            next[0] = pairs[2 &* number]
            next[1] = pairs[2 &* number &+ 1]
            next += 2
        }
    }

    @usableFromInline
    mutating func printInteger(_ value: Int64) {
        room(for: Self.numberBytes)
        next = Self.writeInteger(value.magnitude, negative: value < 0, at: next)
    }

    /// The same, copied from the writer's integer slot `slot` when it holds this very value, else printed and kept
    /// there (a frame's time, printed by each of its lines). The copy is inlined: most lines copy, and the copy
    /// costs less than the call did.
    @inlinable @inline(__always)
    public mutating func integer(_ value: Int64, memoIn slot: Int) {
        let entry = memo.integerEntry(slot)
        guard entry.pointee.bits == UInt64(bitPattern: value) else {
            next = Self.printed(value, keepingIn: slot, on: self)
            return
        }
        // Sixteen bytes whatever the number's length, so the room is tested for sixteen; what is past the number is
        // left out by not counting it.
        precondition(end - next >= NumberMemo.longestKept, "template line longer than its reserved room")
        let raw = UnsafeMutableRawPointer(next)
        raw.storeBytes(of: entry.pointee.low, as: UInt64.self)
        raw.storeBytes(of: entry.pointee.high, toByteOffset: 8, as: UInt64.self)
        next += entry.pointee.count
    }

    /// Prints an integer that its slot does not hold, and keeps it there.
    @usableFromInline
    mutating func printInteger(_ value: Int64, keepingIn slot: Int) {
        room(for: Self.numberBytes)
        let entry = memo.integerEntry(slot)
        let bits = UInt64(bitPattern: value)
        let raw = UnsafeMutableRawPointer(next)
        let kept = Int64(bitPattern: entry.pointee.bits)
        // A time in the same second as the one kept (the next frame's): the kept digits, the last six written over.
        if value >= 1_000_000 && kept >= 1_000_000 && value / 1_000_000 == kept / 1_000_000 {
            let count = entry.pointee.count
            raw.storeBytes(of: entry.pointee.low, as: UInt64.self)
            raw.storeBytes(of: entry.pointee.high, toByteOffset: 8, as: UInt64.self)
            let last = Int(truncatingIfNeeded: value % 1_000_000)
            let first = last / 10_000
            let rest = last &- first &* 10_000
            let second = rest / 100
            let six = Self.pair(first) | Self.pair(second) &<< 16 | Self.pair(rest &- second &* 100) &<< 32
            raw.storeBytes(of: six.littleEndian, toByteOffset: count &- 6, as: UInt64.self)
            next += count
            entry.pointee = NumberMemo.Entry(
                bits: bits, low: raw.loadUnaligned(as: UInt64.self),
                high: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self), count: count)
            return
        }
        // Zeros first, so that the sixteen bytes kept below are all initialized whatever the number's length.
        raw.storeBytes(of: UInt64(0), as: UInt64.self)
        raw.storeBytes(of: UInt64(0), toByteOffset: 8, as: UInt64.self)
        let start = next
        next = Self.writeInteger(value.magnitude, negative: value < 0, at: next)
        let count = next - start
        guard count <= NumberMemo.longestKept else { return }
        entry.pointee = NumberMemo.Entry(
            bits: bits, low: raw.loadUnaligned(as: UInt64.self),
            high: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self), count: count)
    }

    /// Two decimals (every coordinate), as `JSONWriter.appendDouble(_, decimals: 2)` prints them. Inlined: a
    /// coordinate is one word of up to eight bytes (`shortHundredths`), stored at once; larger numbers are a call.
    @inlinable @inline(__always)
    public mutating func hundredths(_ value: Double) {
        guard let short = Self.shortHundredths(value) else {
            next = Self.printedHundredths(value, on: self)
            return
        }
        precondition(end - next >= 8, "template line longer than its reserved room")
        UnsafeMutableRawPointer(next).storeBytes(of: short.bytes.littleEndian, as: UInt64.self)
        next += short.count
    }

    /// The same, and the bytes kept in the writer's memo slot `slot` (any number: taken modulo
    /// `NumberMemo.slotCount`) for `hundredths(_:reusing:)` on this line or a later one.
    @inlinable @inline(__always)
    public mutating func hundredths(_ value: Double, keepingIn slot: Int) {
        guard let short = Self.shortHundredths(value) else {
            next = Self.printedHundredths(value, keepingIn: slot, on: self)
            return
        }
        precondition(end - next >= 8, "template line longer than its reserved room")
        UnsafeMutableRawPointer(next).storeBytes(of: short.bytes.littleEndian, as: UInt64.self)
        next += short.count
        memo.entry(slot).pointee = NumberMemo.Entry(
            bits: value.bitPattern, low: short.bytes.littleEndian, high: 0, count: short.count)
    }

    /// A number under 10,000 in magnitude once rounded to hundredths (every coordinate) as the bytes it prints, in
    /// one word read from its low byte up: a sign, one to four digits, a point and one or two more; at most eight.
    /// Nil for a larger number, an infinity or NaN. No loop and no branch on the digits: the whole part's four
    /// digits are written with its leading zeros, which a shift then drops.
    @inlinable @inline(__always)
    static func shortHundredths(_ value: Double) -> (bytes: UInt64, count: Int)? {
        let scaled = value * 100
        let magnitude = abs(scaled)
        // False for NaN too. Below it the rounded magnitude is at most 999,999.
        guard magnitude < 999_999.5 else { return nil }
        // Half away from zero, on the magnitude: the part cut off by the conversion is exact (below 2^53 it has
        // fewer significant bits than `magnitude`).
        let truncated = Int(magnitude)
        // Unsigned from here: a division by a constant needs no correction for a sign.
        let hundredths = UInt(bitPattern: truncated &+ (magnitude - Double(truncated) >= 0.5 ? 1 : 0))
        let whole = hundredths / 100
        let fraction = Int(bitPattern: hundredths &- whole &* 100)
        let high = Int(bitPattern: whole / 100)
        let low = Int(bitPattern: whole) &- high &* 100
        let fractionPair = pair(fraction)
        var bytes = pair(high) | pair(low) &<< 16 | UInt64(UInt8(ascii: ".")) &<< 32 | fractionPair &<< 40
        let digits = 1 &+ (whole >= 10 ? 1 : 0) &+ (whole >= 100 ? 1 : 0) &+ (whole >= 1_000 ? 1 : 0)
        bytes &>>= UInt64(8 &* (4 &- digits))
        // No fraction when it is zero; one digit when its second is a zero.
        let fractionCount = fraction == 0 ? 0 : (fractionPair &>> 8 == UInt64(UInt8(ascii: "0")) ? 2 : 3)
        var count = digits &+ fractionCount
        if scaled < 0 && hundredths != 0 {
            bytes = bytes &<< 8 | UInt64(UInt8(ascii: "-"))
            count &+= 1
        }
        return (bytes, count)
    }

    /// The two digits of `number` (0..<100) from the table of pairs, the first in the low byte.
    @inlinable @inline(__always)
    static func pair(_ number: Int) -> UInt64 {
        let pairs = UnsafeRawPointer(digitPairs.utf8Start)
        return UInt64(UInt16(littleEndian: pairs.loadUnaligned(fromByteOffset: 2 &* number, as: UInt16.self)))
    }

    /// Numbers too large for `shortHundredths`: printed digit pair by digit pair.
    @usableFromInline
    mutating func printHundredths(_ value: Double) {
        room(for: Self.numberBytes)
        printLongHundredths(value)
    }

    @usableFromInline
    mutating func printHundredths(_ value: Double, keepingIn slot: Int) {
        room(for: Self.numberBytes)
        let raw = UnsafeMutableRawPointer(next)
        // Zeros first, so that the sixteen bytes kept below are all initialized whatever the number's length
        // (inside the room made above, numberBytes; past the number they are left out by not counting them).
        raw.storeBytes(of: UInt64(0), as: UInt64.self)
        raw.storeBytes(of: UInt64(0), toByteOffset: 8, as: UInt64.self)
        let start = next
        printLongHundredths(value)
        let count = next - start
        guard count <= NumberMemo.longestKept else { return }
        memo.entry(slot).pointee = NumberMemo.Entry(
            bits: value.bitPattern, low: raw.loadUnaligned(as: UInt64.self),
            high: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self), count: count)
    }

    /// Copies the bytes kept in slot `slot` when they are of this very Double (bit for bit), else prints it.
    /// Inlined: a copy costs less than the call did.
    @inlinable @inline(__always)
    public mutating func hundredths(_ value: Double, reusing slot: Int) {
        let entry = memo.entry(slot)
        guard entry.pointee.bits == value.bitPattern else { return hundredths(value) }
        // Sixteen bytes stored whatever the number's length, so the room is tested for sixteen; what is past the
        // number is left out by not counting it.
        precondition(end - next >= NumberMemo.longestKept, "template line longer than its reserved room")
        let raw = UnsafeMutableRawPointer(next)
        raw.storeBytes(of: entry.pointee.low, as: UInt64.self)
        raw.storeBytes(of: entry.pointee.high, toByteOffset: 8, as: UInt64.self)
        next += entry.pointee.count
    }

    /// Keeps in slot `target` what slot `source` holds (a line's `x` becomes its finger's, for its next `prev_x`).
    @inlinable @inline(__always)
    public func keep(_ source: Int, in target: Int) {
        memo.entry(target).pointee = memo.entry(source).pointee
    }

    /// Prints the number at `next`, whose room is made.
    private mutating func printLongHundredths(_ value: Double) {
        let scaled = value * 100
        // False for NaN and infinities too (scaled, they stay so): no separate test that the value is finite.
        guard abs(scaled) < 9.0e18 else { return fallback(value, decimals: 2) }
        let fixed = Self.roundedHalfAway(scaled)
        let magnitude = fixed.magnitude
        let pairs = Self.digitPairs.utf8Start
        let fraction: Int
        if magnitude < 1_000_000 {
            // A coordinate (under 10,000): its whole part is one or two pairs of digits, written without counting
            // the digits first or looping.
            if fixed < 0 {
                next.pointee = UInt8(ascii: "-")
                next += 1
            }
            let hundredths = Int(truncatingIfNeeded: magnitude)
            let whole = hundredths / 100
            fraction = hundredths &- whole &* 100
            var low = whole
            if whole >= 100 {
                let high = whole / 100
                low = whole &- high &* 100
                next = Self.writeBelowHundred(high, at: next, pairs: pairs)
                next[0] = pairs[2 &* low]
                next[1] = pairs[2 &* low &+ 1]
                next += 2
            } else {
                next = Self.writeBelowHundred(low, at: next, pairs: pairs)
            }
        } else {
            next = Self.writeInteger(magnitude / 100, negative: fixed < 0, at: next)
            fraction = Int(truncatingIfNeeded: magnitude % 100)
        }
        guard fraction != 0 else { return }
        // Both digits from the table of pairs, with no division; the second is written even when it is a zero to
        // drop (inside the room made above) and left out by not counting it.
        let last = pairs[2 &* fraction &+ 1]
        next[0] = UInt8(ascii: ".")
        next[1] = pairs[2 &* fraction]
        next[2] = last
        next += last == UInt8(ascii: "0") ? 2 : 3
    }

    /// One digit, or two from the table of pairs, for `value` in 0..<100; returns the end.
    @inline(__always)
    private static func writeBelowHundred(
        _ value: Int, at start: UnsafeMutablePointer<UInt8>, pairs: UnsafePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        if value < 10 {
            start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            return start + 1
        }
        start[0] = pairs[2 &* value]
        start[1] = pairs[2 &* value &+ 1]
        return start + 2
    }

    /// Half away from zero, as `rounded(.toNearestOrAwayFromZero)`, without a call to libm's round: the part cut off
    /// by the conversion is exact (below 2^53 it has fewer significant bits than `scaled`; above, none). `scaled`
    /// must be finite and under 9.0e18 in magnitude.
    @inline(__always)
    static func roundedHalfAway(_ scaled: Double) -> Int64 {
        let fixed = Int64(scaled)
        let rest = scaled - Double(fixed)
        if rest >= 0.5 { return fixed + 1 }
        if rest <= -0.5 { return fixed - 1 }
        return fixed
    }

    /// Any number of decimals, as `JSONWriter.appendDouble` prints them: trailing zeros dropped (a pinch's scale has
    /// four). Written in place like `hundredths`, with no buffer of its own on the way.
    public mutating func double(_ value: Double, decimals: Int) {
        if decimals == 2 { return printHundredths(value) }
        room(for: Self.numberBytes)
        let places = max(0, min(decimals, 9))
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = value * Double(scale)
        guard value.isFinite, abs(scaled) < 9.0e18 else { return fallback(value, decimals: places) }
        let fixed = Self.roundedHalfAway(scaled)
        let magnitude = fixed.magnitude
        next = Self.writeInteger(magnitude / UInt64(scale), negative: fixed < 0, at: next)
        var fraction = magnitude % UInt64(scale)
        guard fraction != 0 else { return }
        var width = places
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        next.pointee = UInt8(ascii: ".")
        for position in stride(from: width, to: 0, by: -1) {
            next[position] = UInt8(ascii: "0") &+ UInt8(fraction % 10)
            fraction /= 10
        }
        next += width + 1
    }

    /// Non-finite and huge values (never a coordinate in practice): the writer's general path, through a buffer.
    private mutating func fallback(_ value: Double, decimals: Int) {
        var buffer = ByteBuffer(capacity: Self.numberBytes)
        JSONWriter.appendDouble(value, decimals: decimals, to: &buffer)
        buffer.withUnsafeBytes { raw in
            for byte in raw {
                next.pointee = byte
                next += 1
            }
        }
    }

    /// A string value, quoted and escaped as `JSONWriter` escapes it: the room must allow six bytes a byte, plus 2.
    public mutating func string(_ value: String) {
        // The string's own bytes where it has them (native and small strings: ids, names), with no copy of the
        // string to make them contiguous.
        if value.utf8.withContiguousStorageIfAvailable({ utf8 in quoted(utf8) }) == nil {
            var text = value
            text.withUTF8 { utf8 in quoted(utf8) }
        }
    }

    /// An interned string's JSON form, made when it was interned: a copy, like a literal, sixteen bytes at a time
    /// (ids are short: a call to memmove cost more than the copy). The entry holds `paddedCount` bytes, so every
    /// load is inside it; what is past the JSON is stored inside the room, tested for as many, and left out by not
    /// counting it. A room too short for the padding (never a whole event line's) takes the exact copy.
    @inlinable @inline(__always)
    public mutating func string(_ value: InternedString) {
        let json = value.entry.pointee.json
        let padded = value.entry.pointee.paddedCount
        guard end - next >= padded, let source = json.baseAddress else {
            next = Self.copied(json, on: self)
            return
        }
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(next)
        var offset = 0
        repeat {
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset,
                as: SIMD16<UInt8>.self)
            offset &+= 16
        } while offset < padded
        next += json.count
    }

    @usableFromInline
    mutating func exactly(_ json: UnsafeBufferPointer<UInt8>) {
        room(for: json.count)
        if let source = json.baseAddress { next.update(from: source, count: json.count) }
        next += json.count
    }

    /// Copies the bytes between quotes as it checks them (ids and names are short: a byte loop costs less than a
    /// scan and a call to memcpy); a byte that needs escaping starts over on the escaping path.
    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        room(for: utf8.count + 2)
        var target = next + 1
        for byte in utf8 {
            guard byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") else {
                return escaped(utf8)
            }
            target.pointee = byte
            target += 1
        }
        next.pointee = UInt8(ascii: "\"")
        target.pointee = UInt8(ascii: "\"")
        next = target + 1
    }

    private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        room(for: utf8.count * 6 + 2)
        var buffer = JSONWriter(capacity: utf8.count * 6 + 2)
        buffer.element(String(decoding: utf8, as: UTF8.self))
        buffer.withUnsafeBytes { raw in
            if let source = raw.baseAddress {
                next.update(from: source.assumingMemoryBound(to: UInt8.self), count: raw.count)
            }
            next += raw.count
        }
    }

    @inline(__always)
    private func room(for count: Int) {
        precondition(end - next >= count, "template line longer than its reserved room")
    }

    /// Coordinates are mostly under 10,000, times in microseconds up to twelve digits: compared in halves, so a
    /// time takes four comparisons, not a loop; longer numbers are counted.
    @inline(__always)
    private static func digitCount(_ magnitude: UInt64) -> Int {
        if magnitude < 100 { return magnitude < 10 ? 1 : 2 }
        if magnitude < 10_000 { return magnitude < 1_000 ? 3 : 4 }
        if magnitude < 100_000_000 {
            if magnitude < 1_000_000 { return magnitude < 100_000 ? 5 : 6 }
            return magnitude < 10_000_000 ? 7 : 8
        }
        if magnitude < 1_000_000_000_000 {
            if magnitude < 10_000_000_000 { return magnitude < 1_000_000_000 ? 9 : 10 }
            return magnitude < 100_000_000_000 ? 11 : 12
        }
        var digits = 13
        var bound: UInt64 = 10_000_000_000_000
        while digits < 20 && magnitude >= bound {
            digits += 1
            bound = bound &* 10
        }
        return digits
    }

    /// Writes the digits (and a sign) at `start` and returns the end: a number under 10^8 (a time since a down) as
    /// one word of eight digits whose leading zeros a shift drops (eight bytes stored whatever its length: callers
    /// make room for `numberBytes`); longer ones two digits a step.
    @inline(__always)
    private static func writeInteger(
        _ magnitude: UInt64, negative: Bool, at start: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        var position = start
        if negative {
            position.pointee = UInt8(ascii: "-")
            position += 1
        }
        let raw = UnsafeMutableRawPointer(position)
        if magnitude < 100_000_000 {
            let digits = digitCount(magnitude)
            let word = eightDigits(Int(truncatingIfNeeded: magnitude)) &>> UInt64(8 &* (8 &- digits))
            raw.storeBytes(of: word.littleEndian, as: UInt64.self)
            return position + digits
        }
        let digits = digitCount(magnitude)
        let end = position + digits
        var rest = magnitude
        var cursor = end
        // Two digits a step, copied from a table of the hundred pairs: half the divisions of one at a time, and no
        // division of the pair into its digits.
        let pairs = digitPairs.utf8Start
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100)
            rest /= 100
            cursor -= 2
            cursor[0] = pairs[2 &* pair]
            cursor[1] = pairs[2 &* pair &+ 1]
        }
        let last = Int(truncatingIfNeeded: rest)
        if last >= 10 {
            cursor[-2] = pairs[2 &* last]
            cursor[-1] = pairs[2 &* last &+ 1]
        } else {
            cursor[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: last)
        }
        return end
    }

    /// The eight digits of `number` (0..<10^8), leading zeros included, the first in the low byte.
    @inlinable @inline(__always)
    static func eightDigits(_ number: Int) -> UInt64 {
        let high = number / 10_000
        let low = number &- high &* 10_000
        let first = high / 100
        let third = low / 100
        return pair(first) | pair(high &- first &* 100) &<< 16 | pair(third) &<< 32 | pair(low &- third &* 100) &<< 48
    }

    // The rare paths of the inlined writers, as functions of a copy of the cursor that return where it ends: the
    // inlined writers' cursor is never passed by address, so it stays in registers instead of being stored back
    // after each write for the calls' sake.

    @usableFromInline @inline(never)
    static func printed(_ value: Int64, on cursor: TemplateCursor) -> UnsafeMutablePointer<UInt8> {
        var copy = cursor
        copy.printInteger(value)
        return copy.next
    }

    @usableFromInline @inline(never)
    static func printed(_ value: Int64, keepingIn slot: Int, on cursor: TemplateCursor) -> UnsafeMutablePointer<UInt8> {
        var copy = cursor
        copy.printInteger(value, keepingIn: slot)
        return copy.next
    }

    @usableFromInline @inline(never)
    static func printedHundredths(_ value: Double, on cursor: TemplateCursor) -> UnsafeMutablePointer<UInt8> {
        var copy = cursor
        copy.printHundredths(value)
        return copy.next
    }

    @usableFromInline @inline(never)
    static func printedHundredths(_ value: Double, keepingIn slot: Int, on cursor: TemplateCursor)
        -> UnsafeMutablePointer<UInt8>
    {
        var copy = cursor
        copy.printHundredths(value, keepingIn: slot)
        return copy.next
    }

    @usableFromInline @inline(never)
    static func copied(_ json: UnsafeBufferPointer<UInt8>, on cursor: TemplateCursor) -> UnsafeMutablePointer<UInt8> {
        var copy = cursor
        copy.exactly(json)
        return copy.next
    }

    /// "00" to "99", one after the other: a static string's bytes are in the binary, read with no initialization.
    @usableFromInline static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
}

extension JSONWriter {
    /// Makes room for one template line of at most `maximum` bytes, then lets `body` write it through a cursor.
    /// Inlined with `body`: a line's template is written where it is asked for, with no closure and no copy of the
    /// values it captures.
    @inlinable @inline(__always)
    public mutating func writeTemplate(maximum: Int, _ body: (inout TemplateCursor) -> Void) {
        let (start, memo) = buffer.reserveUnchecked(maximum: maximum)
        var cursor = TemplateCursor(next: start, end: start + maximum, memo: memo)
        body(&cursor)
        buffer.commitUnchecked(upTo: cursor.next)
    }
}
