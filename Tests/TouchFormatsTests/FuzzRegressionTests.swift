import Testing
import TouchCore
import TouchFormats

/// Inputs the fuzzer (scripts/fuzz.sh) found crashing, reduced by hand: each must now be a clear error.
@Suite("Fuzzing regressions")
struct FuzzRegressionTests {
    @Test("evemu: seconds beyond 64-bit microseconds are a bad number, not a trap")
    func evemuTimeOverflow() throws {
        for time in ["99999999999999.000001", "99999999999999999"] {
            let text = "E: \(time) 0003 0035 0001\n"
            let error = try #require(throws: RecordingError.self) { try EvemuReader.parse(Array(text.utf8), file: "f") }
            #expect(error.kind == .badNumber)
            #expect(error.field == "E time")
        }
    }

    @Test("raw input_event: a tv_sec beyond 64-bit microseconds is an error naming the record")
    func rawTimeOverflow() throws {
        var events = [InputEvent(time: EventTime(microseconds: 5), type: 3, code: 0x35, value: 1)]
        var bytes = RawEventReader.write(events)
        events[0].time = EventTime(microseconds: 6)
        var second = RawEventReader.write(events)
        withUnsafeBytes(of: Int64.max.littleEndian) { for (index, byte) in $0.enumerated() { second[index] = byte } }
        bytes += second
        let error = try #require(throws: RecordingError.self) { try RawEventReader.parse(bytes, file: "dump") }
        #expect(error.kind == .badNumber)
        #expect(error.line == 2)
    }

    @Test("libinput record: an out-of-range time is an error with its line")
    func yamlTimeOverflow() throws {
        let text = """
            version: 1
            devices:
            - evdev:
                name: x
              events:
              - evdev:
                - [9223372036854775807, 0, 3, 53, 1]
            """
        let error = try #require(throws: RecordingError.self) {
            try LibinputRecordReader.parse(Array(text.utf8), file: "r.yml")
        }
        #expect(error.kind == .badNumber)
        #expect(error.line == 7)
    }
}
