import CFuzzerDriver

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer's byte mutations almost never turn `E: 0.012000` into `E: 9223372036854.775807`, or a raw record's tv_sec
/// into -9e12, so without help the targets would not reach the times where unchecked arithmetic traps. This mutator
/// does, one time in three: it rewrites one timestamp of a text recording (evemu `E:`, getevent `[ sec.usec]`, evtest
/// `time sec.usec,`, libinput record `[sec, usec, …]`) or of a raw `input_event` record to a time near Int64's limits,
/// to 0, to a span of 1e13 s, or to a time before the one before it. The other two times in three it is libFuzzer's own
/// mutation.
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data else { return 0 }
    var random = SplitMix(seed: UInt64(seed))
    if random.below(3) == 0, size > 0 {
        let bytes = Array(UnsafeBufferPointer(start: data, count: size))
        if let mutated = TimeMutator.mutate(bytes, random: &random), mutated.count <= maxSize {
            for (index, byte) in mutated.enumerated() { data[index] = byte }
            return mutated.count
        }
    }
    return LLVMFuzzerMutate(data, size, maxSize)
}

enum TimeMutator {
    /// `sec.usec` texts: the end of time and around it, beyond it (an error, not a trap), zero, the ends of a
    /// 1.8e13 s span, and 2^62 µs.
    static let extremeTexts = [
        "9223372036854.775807", "9223372036854.775806", "9223372036854.000000", "9223372036855.000000",
        "99999999999999.000001", "0.000000", "0.000001", "9000000000000.000000", "4611686018427.387904",
    ]
    /// Whole seconds, for libinput record arrays and raw tv_sec.
    static let extremeSeconds: [Int64] = [
        9_223_372_036_854, -9_223_372_036_854, 9_000_000_000_000, -9_000_000_000_000, 0, .max, .min, 4_611_686_018_427,
    ]

    static func mutate(_ bytes: [UInt8], random: inout SplitMix) -> [UInt8]? {
        if bytes.count >= 24 && bytes.count % 24 == 0 && bytes.contains(0) {
            return mutateRaw(bytes, random: &random)
        }
        return mutateText(bytes, random: &random)
    }

    /// One record's tv_sec and tv_usec: an extreme, or one second before the record before it.
    static func mutateRaw(_ bytes: [UInt8], random: inout SplitMix) -> [UInt8] {
        var bytes = bytes
        let records = bytes.count / 24
        let record = random.below(records)
        func load(_ offset: Int) -> Int64 {
            bytes[offset..<offset + 8].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
        func store(_ value: Int64, at offset: Int) {
            for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
        let seconds: Int64
        if record > 0 && random.below(3) == 0 {
            seconds = load((record - 1) * 24) &- 1 &- Int64(random.below(1000))
        } else {
            seconds = extremeSeconds[random.below(extremeSeconds.count)]
        }
        store(seconds, at: record * 24)
        store([0, 775_807, 999_999, Int64(random.below(1_000_000))][random.below(4)], at: record * 24 + 8)
        return bytes
    }

    /// One timestamp of a text recording.
    static func mutateText(_ bytes: [UInt8], random: inout SplitMix) -> [UInt8]? {
        let times = timeTokens(bytes)
        guard !times.isEmpty else { return nil }
        let chosen = times[random.below(times.count)]
        let replacement: [UInt8]
        switch random.below(4) {
        case 0:
            // Backwards: the previous token's time minus up to a second (or this one's, for the first).
            let reference = times.lastIndex { $0.upperBound <= chosen.lowerBound }.map { times[$0] } ?? chosen
            let micros = value(of: bytes[reference]) &- Int64(1 + random.below(1_000_000))
            replacement = Array(format(micros, like: bytes[chosen]).utf8)
        case 1:
            // Equal to a random other time: equal, earlier or later.
            replacement = Array(bytes[times[random.below(times.count)]])
        case 2:
            // A span of 1e13 s: the first time near 0, this one near the end.
            var spanned = bytes
            spanned.replaceSubrange(chosen, with: Array("9223372036854.000000".utf8))
            if let first = timeTokens(spanned).first, first != chosen {
                spanned.replaceSubrange(first, with: Array("0.000001".utf8))
            }
            return spanned
        default:
            let text = extremeTexts[random.below(extremeTexts.count)]
            replacement = Array((isDecimal(bytes[chosen]) ? text : String(text.prefix { $0 != "." })).utf8)
        }
        var result = bytes
        result.replaceSubrange(chosen, with: replacement)
        return result
    }

    /// Ranges of `sec.usec` tokens, and of the first integer after `[` (libinput record's `[sec, usec, …]`).
    static func timeTokens(_ bytes: [UInt8]) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            guard
                isDigit(bytes[index])
                    || (bytes[index] == UInt8(ascii: "-") && index + 1 < bytes.count && isDigit(bytes[index + 1]))
            else {
                index += 1
                continue
            }
            let start = index
            index += 1
            var dots = 0
            while index < bytes.count && (isDigit(bytes[index]) || bytes[index] == UInt8(ascii: ".")) {
                if bytes[index] == UInt8(ascii: ".") { dots += 1 }
                index += 1
            }
            var before = start - 1
            while before >= 0 && bytes[before] == UInt8(ascii: " ") { before -= 1 }
            let afterBracket = before >= 0 && bytes[before] == UInt8(ascii: "[")
            if (dots == 1 && bytes[index - 1] != UInt8(ascii: ".")) || (dots == 0 && afterBracket) {
                tokens.append(start..<index)
            }
        }
        return tokens
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isDecimal(_ token: ArraySlice<UInt8>) -> Bool { token.contains(UInt8(ascii: ".")) }

    /// A token's time in µs (whole seconds for integer tokens), wrapping: the harness itself must not trap.
    static func value(of token: ArraySlice<UInt8>) -> Int64 {
        var seconds: Int64 = 0
        var micros: Int64 = 0
        var fraction = -1
        var negative = false
        for byte in token {
            if byte == UInt8(ascii: "-") {
                negative = true
            } else if byte == UInt8(ascii: ".") {
                fraction = 0
            } else if fraction < 0 {
                seconds = seconds &* 10 &+ Int64(byte - UInt8(ascii: "0"))
            } else if fraction < 6 {
                micros = micros &* 10 &+ Int64(byte - UInt8(ascii: "0"))
                fraction += 1
            }
        }
        while fraction >= 0 && fraction < 6 {
            micros &*= 10
            fraction += 1
        }
        let total = seconds &* 1_000_000 &+ micros
        return negative ? 0 &- total : total
    }

    /// µs as `sec.usec` (or whole seconds, for an integer token); a negative time keeps its sign.
    static func format(_ micros: Int64, like token: ArraySlice<UInt8>) -> String {
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        guard isDecimal(token) else { return sign + String(magnitude / 1_000_000) }
        let fraction = String(magnitude % 1_000_000)
        return sign + String(magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// A small deterministic generator from libFuzzer's seed, so a mutation can be replayed.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
