import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles

/// The fast reading of evemu-record's layout (`E: ` then fixed widths, decimal fields eight bytes at a time) against
/// the reading of the same line with a tab after `E:`, which the layout does not take (the cursor and the general
/// path read it), on many generated lines near the layout: plain ones, and ones with stray bytes, signs, long and
/// short fields, bytes of 0x80 and more, NUL and `\r`.
@Suite("evemu layout lines against other spacing, generated")
struct EvemuLayoutDifferentialTests {
    /// A small deterministic generator (SplitMix64), so that a failure repeats.
    struct Mix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    static let strays: [UInt8] = Array(".-+a/:x \t\r#".utf8) + [0, 0x7f, 0x80, 0xb0, 0xb9, 0xff, 0x3a, 0x2f]

    static func digits(_ count: Int, _ mix: inout Mix) -> [UInt8] {
        (0..<count).map { _ in UInt8(ascii: "0") + UInt8(mix.below(10)) }
    }

    /// A field of `count` digits, now and then with a stray byte in place of one.
    static func decimal(_ count: Int, _ mix: inout Mix) -> [UInt8] {
        var field = digits(count, &mix)
        if !field.isEmpty && mix.chance(10) { field[mix.below(field.count)] = strays[mix.below(strays.count)] }
        return field
    }

    /// The line after `E:` and its separator, and the event it says when it is plain. More than half the lines repeat
    /// the time of the line before (`previous`), as the lines of one frame do, which a run of lines remembers, some
    /// with one digit changed.
    static func rest(
        _ mix: inout Mix, previous: inout (seconds: [UInt8], fraction: [UInt8])?
    ) -> (bytes: [UInt8], expected: InputEvent?) {
        var plain = true
        var seconds: [UInt8]
        var fraction: [UInt8]
        if let previous, mix.chance(60) {
            (seconds, fraction) = previous
            // Now and then one digit differs: a time that is nearly the one remembered.
            if mix.chance(30) && !fraction.isEmpty {
                let index = mix.below(seconds.count + fraction.count)
                let digit = UInt8(ascii: "0") + UInt8(mix.below(10))
                if index < seconds.count { seconds[index] = digit } else { fraction[index - seconds.count] = digit }
            }
        } else {
            let secondDigits = mix.chance(80) ? 1 + mix.below(10) : mix.below(22)
            seconds = decimal(secondDigits, &mix)
            if mix.chance(5) { seconds = Array("0".utf8) + seconds }
            let fractionDigits = mix.chance(90) ? 6 : mix.below(9)
            fraction = decimal(fractionDigits, &mix)
        }
        previous = (seconds, fraction)
        let types: [(String, UInt16, [UInt16])] = [
            ("0003", EventType.abs, [0x35, 0x36, 0x39, 0x2f, 0x30, 0x3a, 0x00]), ("0000", EventType.syn, [0, 3]),
            ("0001", EventType.key, [0x14a, 0x145]), ("0004", EventType.msc, [5]),
        ]
        let (typeText, type, codes) = types[mix.below(types.count)]
        let code = codes[mix.below(codes.count)]
        var codeText = Array(String(code, radix: 16))
        while codeText.count < 4 { codeText.insert("0", at: 0) }
        var typeBytes = Array(typeText.utf8)
        var codeBytes = Array(String(codeText).utf8)
        if mix.chance(5) {
            typeBytes = Array(typeBytes.prefix(1 + mix.below(4))) + (mix.chance(50) ? [] : Array("1".utf8))
            plain = false
        }
        if mix.chance(5) {
            codeBytes[mix.below(4)] = strays[mix.below(strays.count)]
            plain = false
        }
        var sign: [UInt8] = []
        if mix.chance(25) { sign = Array("-".utf8) }
        if mix.chance(3) {
            sign = mix.chance(50) ? Array("+".utf8) : Array("--".utf8)
            plain = false
        }
        let valueDigits = mix.chance(85) ? 1 + mix.below(7) : mix.below(13)
        let value = decimal(valueDigits, &mix)
        let tails: [String] = [
            "", "", "", " ", "\t# EV_ABS / ABS_MT_POSITION_X", " #", "\r", "x", "  ", "#x", " # a\0b",
            "\t# ------------ SYN_REPORT (0) ---------- +12ms", "\t#", "\t \t# x", " \r", "\r\r", "\t# x\r",
        ]
        let tail = Array(tails[mix.below(tails.count)].utf8)
        var separators = [UInt8](repeating: UInt8(ascii: " "), count: 3)
        if mix.chance(3) {
            separators[mix.below(3)] = UInt8(ascii: "\t")
        }
        let bytes =
            seconds + Array(".".utf8) + fraction + [separators[0]] + typeBytes + [separators[1]] + codeBytes
            + [separators[2]] + sign + value + tail
        // The event, worked out from the pieces, when each is plain.
        let allDigits = (seconds + fraction + value).allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        guard plain, allDigits, (1...12).contains(seconds.count), fraction.count == 6, (1...9).contains(value.count),
            !["x", "#x", " # a\0b", "\r\r"].contains(String(decoding: tail, as: UTF8.self)),
            let secondsValue = Int64(String(decoding: seconds, as: UTF8.self)),
            let micros = Int64(String(decoding: fraction, as: UTF8.self)),
            let magnitude = Int32(String(decoding: value, as: UTF8.self))
        else { return (bytes, nil) }
        let event = InputEvent(
            time: EventTime(microseconds: secondsValue * 1_000_000 + micros), type: type, code: code,
            value: sign.isEmpty ? magnitude : -magnitude)
        return (bytes, event)
    }

    static func outcome(_ text: [UInt8]) -> String {
        do {
            let recording = try EvemuReader.parse(text, file: "f", options: ReadOptions(skipBadLines: true))
            let skipped = recording.skipped.map { "\($0.line ?? -1) \($0.kind) \($0.field ?? "-")" }
            return "\(recording.events) skipped \(skipped)"
        } catch {
            return "error \(error.kind) \(error.line ?? -1)"
        }
    }

    @Test("20,000 generated lines, one file and each alone: the same events and skipped lines either way, streamed too")
    func generatedLinesAgree() throws {
        var mix = Mix(state: 0x7475_6368_6473_3137)
        var layoutFile: [UInt8] = []
        var tabFile: [UInt8] = []
        var expectedCount = 0
        var previous: (seconds: [UInt8], fraction: [UInt8])?
        for index in 0..<20_000 {
            let (rest, expected) = Self.rest(&mix, previous: &previous)
            let layoutLine = Array("E: ".utf8) + rest
            let tabLine = Array("E:\t".utf8) + rest
            layoutFile += layoutLine + [UInt8(ascii: "\n")]
            tabFile += tabLine + [UInt8(ascii: "\n")]
            // Alone, without a newline: the line ends where the buffer does.
            if index % 4 == 0 {
                let layout = Self.outcome(layoutLine)
                #expect(
                    layout == Self.outcome(tabLine), "\(String(decoding: layoutLine, as: UTF8.self).debugDescription)")
                if let expected {
                    expectedCount += 1
                    #expect(layout == "\([expected]) skipped []", "\(String(decoding: layoutLine, as: UTF8.self))")
                }
            }
        }
        #expect(Self.outcome(layoutFile) == Self.outcome(tabFile))
        #expect(expectedCount > 1_000)
        // The streaming reader (lines crossing reads of 13 bytes, and whole in 4 KiB) reads them as the whole file.
        let options = ReadOptions(skipBadLines: true)
        for file in [layoutFile, tabFile] {
            let whole = try EvemuReader.parse(file, file: "f", options: options)
            for bufferSize in [13, 4096] {
                let stream = try RecordingStream(
                    input: RecordingInput(bytes: file, name: "f"), format: .evemu, options: options,
                    bufferSize: bufferSize, batchSize: 100)
                var events: [InputEvent] = []
                try stream.forEachBatch { events += $0 }
                #expect(events == whole.events, "buffer \(bufferSize)")
                #expect(stream.info.skippedCount == whole.skipped.count)
                #expect(stream.info.firstSkipped == whole.skipped.first)
            }
        }
    }
}
