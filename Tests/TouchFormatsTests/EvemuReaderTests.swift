import Testing
import TouchCore
import TouchFormats
import TouchTestKit

@Suite("evemu reader and writer")
struct EvemuReaderTests {
    static let header = """
        # EVEMU 1.3
        N: Test Panel
        I: 0003 1234 abcd 0101
        P: 02 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1023 0 0 12
        A: 01 0 767 0 0 12
        A: 2f 0 9 0 0 0
        A: 35 0 1023 0 0 12
        A: 36 0 767 0 0 12
        A: 39 0 65535 0 0

        """

    func parse(_ text: String, options: ReadOptions = ReadOptions()) throws -> Recording {
        try EvemuReader.parse(Array(text.utf8), file: "test.evemu", options: options)
    }

    @Test("header lines give the description; zero-padded values and hex codes decode")
    func description() throws {
        let recording = try parse(Self.header + "E: 0.000001 0003 0039 0360\t# comment\nE: 0.000002 0003 0039 -001\n")
        let device = recording.description
        #expect(recording.version == "1.3")
        #expect(device.name == "Test Panel")
        #expect(device.id == DeviceID(bustype: 3, vendor: 0x1234, product: 0xabcd, version: 0x101))
        #expect(device.properties == [InputProperty.direct])
        #expect(device.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 1023, resolution: 12))
        #expect(device.absInfo[AbsCode.mtTrackingID]?.resolution == 0)  // 1.0/1.1 lines have no resolution
        #expect(device.slotCount == 10)
        // B: 03 03 00 00 00 00 80 60 02 is bits 0, 1 (ABS_X, ABS_Y), 47 (0x2f), 53, 54 (0x35, 0x36), 57 (0x39).
        #expect(device.codes[EventType.abs]?.isSuperset(of: [0, 1, 0x2f, 0x35, 0x36, 0x39]) == true)
        #expect(recording.events.map(\.value) == [360, -1])
        #expect(recording.events[0].time == EventTime(microseconds: 1))
    }

    @Test("absolute 1.1 times are kept as written")
    func absoluteTimes() throws {
        let recording = try parse("E: 1288981453.965969 0003 0039 0431\n")
        #expect(recording.events[0].time.microseconds == 1_288_981_453_965_969)
        #expect(recording.descriptionSource == .inferred)
    }

    @Test(
        "malformed lines name file, line and field",
        arguments: [
            ("E: 0.1 0003 0039\n", RecordingError.Kind.wrongFieldCount, "E"),
            ("E: x.1 0003 0039 1\n", .badNumber, "E time"),
            ("E: 0.1 00zz 0039 1\n", .badNumber, "E type"),
            ("E: 0.1 0003 0039 12a\n", .badNumber, "E value"),
            ("E: 0.1 0003 0040 1\n", .unknownCode, "E code"),
            ("E: 0.1 0003 0039 99999999999\n", .badNumber, "E value"),
            ("A: 35 0 100\n", .wrongFieldCount, "A"),
            ("Q: what\n", .badLine, nil),
        ] as [(String, RecordingError.Kind, String?)])
    func malformed(line: String, kind: RecordingError.Kind, field: String?) throws {
        let text = "# EVEMU 1.3\nE: 0.000001 0000 0000 0000\n" + line
        let error = try #require(throws: RecordingError.self) { try parse(text) }
        #expect(error.kind == kind)
        #expect(error.line == 3)
        #expect(error.field == field)
        #expect(error.description.hasPrefix("test.evemu:3: "))
    }

    @Test("skip-bad-lines keeps the good lines and counts the bad ones")
    func skipping() throws {
        let text = "E: 0.1 0003 0039 1\nE: broken\nE: 0.2 0000 0000 0\nE: 0.3 0003 zz 1\n"
        let recording = try parse(text, options: ReadOptions(skipBadLines: true))
        #expect(recording.events.count == 2)
        #expect(recording.skipped.map(\.line) == [2, 4])
    }

    @Test("written evemu 1.3 reads back identical: description and events")
    func roundTrip() throws {
        let script = EventScript()
        script.slot(0).trackingID(5).position(x: 10, y: 20).abs(AbsCode.mtPressure, 33).report()
        script.slot(1).trackingID(6).position(x: 300, y: 40).report()
        script.slot(0).trackingID(-1).key(KeyCode.touch, 0).report()
        let device = TestDevices.touchscreen
        let text = EvemuWriter.write(description: device, events: script.events)
        let back = try parse(text)
        #expect(back.description == device)
        #expect(back.events == script.events)

        let relative = try parse(
            EvemuWriter.write(description: device, events: script.events, timeBase: .relativeToFirstEvent))
        #expect(relative.events.first?.time == EventTime(microseconds: 1))  // as evemu-record writes it
        #expect(relative.events.map(\.value) == script.events.map(\.value))
        #expect(
            zip(relative.events, script.events).allSatisfy {
                $1.time.microseconds - $0.time.microseconds == script.events[0].time.microseconds - 1
            })
    }

    @Test("the writer pads values as evemu does")
    func padding() {
        let events = [
            InputEvent(time: EventTime(microseconds: 1), type: 3, code: 0x39, value: -1),
            InputEvent(time: EventTime(microseconds: 2), type: 3, code: 0x35, value: 36),
        ]
        let text = EvemuWriter.write(description: DeviceDescription(), events: events)
        #expect(text.contains("E: 0.000001 0003 0039 -001\t"))
        #expect(text.contains("E: 0.000002 0003 0035 0036\t"))
    }

    /// One line read by the whole-file reader: its events, or its error.
    func outcome(_ line: [UInt8]) -> Result<[InputEvent], RecordingError> {
        Result { () throws(RecordingError) in try EvemuReader.parse(line, file: "f").events }
    }

    /// An outcome as text, errors by kind and field (their columns differ with the spacing).
    func summary(_ result: Result<[InputEvent], RecordingError>) -> String {
        switch result {
        case .success(let events): "\(events)"
        case .failure(let error): "\(error.kind) \(error.field ?? "-")"
        }
    }

    @Test(
        "the layout (read a word at a time) and other spacing read alike: fraction and code digits, values of any length"
    )
    func layoutAgreesWithOtherSpacing() throws {
        // A second blank after `E:` takes the line off the fixed layout, to the general reading. Errors are compared
        // by kind and field: a column differs by the blank.
        let fraction = Array("345678".utf8)
        for position in fraction.indices {
            for byte in Array("/0579:aA #".utf8) + [0x00, 0x7f, 0xb9] {
                var digits = fraction
                digits[position] = byte
                let rest = Array("12.".utf8) + digits + Array(" 0003 0035 0123\t# x\n".utf8)
                let layout = outcome(Array("E: ".utf8) + rest)
                #expect(summary(layout) == summary(outcome(Array("E:  ".utf8) + rest)), "fraction \(digits)")
                if case .success(let events) = layout, let value = Int64(String(decoding: digits, as: UTF8.self)) {
                    #expect(events.first?.time == EventTime(microseconds: 12_000_000 + value))
                }
            }
        }
        // Values of any length and sign, and near misses.
        let values = [
            "0123", "01234", "-001", "-0001", "9999", "99999", "0", "12", "123", "2147483647", "2147483648",
            "-2147483648", "00000000001", "01a3", "0/23", "012:", "0123#", "0123 # x",
        ]
        for text in values {
            let rest = Array("12.345678 0003 0035 \(text)".utf8)
            let layout = outcome(Array("E: ".utf8) + rest)
            #expect(summary(layout) == summary(outcome(Array("E:  ".utf8) + rest)), "value \(text)")
            if let value = Int32(text.split(separator: " ")[0]) {
                #expect(try layout.get().first?.value == value, "value \(text)")
            }
        }
        // The code field, read a word at a time when it is decimal digits alone, else a digit at a time.
        let code = Array("0035".utf8)
        for position in code.indices {
            for byte in Array("/0379:aAfFgG ".utf8) + [0x00, 0xb9] {
                var digits = code
                digits[position] = byte
                let rest = Array("12.345678 0003 ".utf8) + digits + Array(" 0123\n".utf8)
                let layout = outcome(Array("E: ".utf8) + rest)
                #expect(summary(layout) == summary(outcome(Array("E:  ".utf8) + rest)), "code \(digits)")
                if case .success(let events) = layout,
                    let value = UInt16(String(decoding: digits, as: UTF8.self), radix: 16)
                {
                    #expect(events.first?.code == value)
                }
            }
        }
    }

    @Test(
        "the layout's seconds and values (read eight bytes at a time) read as the general path reads them, whatever follows"
    )
    func layoutWordsAgreeWithOtherSpacing() throws {
        // Seconds of 1 to 20 digits (8 and more are read a digit at a time; 19 overflow), leading zeros, a stray
        // byte in place of a digit.
        var secondsTexts: [String] = []
        for length in 1...20 {
            secondsTexts.append(String(String(repeating: "9876543210", count: 2).prefix(length)))
            secondsTexts.append(String(repeating: "0", count: length - 1) + "7")
        }
        secondsTexts += ["", "1a", "12 3", "-1", "+1", "1\u{7f}", "12345678\u{b9}", "0x1"]
        // Each line with and without a comment, so that the value's eight bytes reach past the line's end or not.
        let tails = ["", "\t# EV_ABS / ABS_MT_POSITION_X 1152", " ", "\r"]
        for seconds in secondsTexts {
            for tail in tails {
                let rest = Array("\(seconds).345678 0003 0035 1152\(tail)\n".utf8)
                let layout = outcome(Array("E: ".utf8) + rest)
                #expect(summary(layout) == summary(outcome(Array("E:  ".utf8) + rest)), "seconds \(seconds)")
                if case .success(let events) = layout, let whole = Int64(seconds) {
                    #expect(events.first?.time == EventTime(microseconds: whole * 1_000_000 + 345_678))
                }
            }
        }
        // Values of 1 to 12 digits, with a sign, leading zeros, a stray byte after some digits.
        var values: [String] = []
        for length in 1...12 {
            let digits = String(String(repeating: "2147483648", count: 2).prefix(length))
            values += [digits, "-" + digits, String(repeating: "0", count: length - 1) + "5"]
        }
        values += [
            "-", "--1", "-0", "1-", "12\u{7f}", "1234567\u{b9}", "12345678\u{b9}", "0x10", "1.5", "214748364",
            "-214748364",
        ]
        for value in values {
            for tail in tails {
                let rest = Array("12.345678 0003 0035 \(value)\(tail)\n".utf8)
                let layout = outcome(Array("E: ".utf8) + rest)
                #expect(summary(layout) == summary(outcome(Array("E:  ".utf8) + rest)), "value \(value)")
                if case .success(let events) = layout {
                    #expect(events.first?.value == Int32(value), "value \(value)")
                }
            }
        }
    }

    @Test("a negative sec.usec is a bad time, \"-0.5\" too (it was read as +0.5)")
    func negativeFractionalTime() throws {
        for time in ["-0.500000", "-1.000001"] {
            let text = "E: \(time) 0003 0035 0001\n"
            let error = try #require(throws: RecordingError.self) { try EvemuReader.parse(Array(text.utf8), file: "f") }
            #expect(error.field == "E time")
        }
    }
}
