import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles

/// The first pass of an evemu file read in two halves at once (`SplitSurvey`), against answers worked out from
/// the file as it is written here: a bad line's number in the whole file, the first of two, skipped counts,
/// axis ranges that come from both halves, and a description line in the second half.
@Suite("evemu first pass in two halves")
struct SplitSurveyTests {
    /// A file of `count` event lines after a two-line header (line 1 a comment, line 2 the name): event line `n`
    /// (numbered from 1) is line `n + 2` of the file, and sets ABS_MT_POSITION_X to `x(n)`. `replace` puts other
    /// text in place of some event lines, by file line number.
    static func file(count: Int = 200, x: (Int) -> Int = { $0 }, replace: [Int: String] = [:]) -> [UInt8] {
        var text = "# touchd split test\nN: split\n"
        for event in 1...count {
            let line = event + 2
            text += replace[line] ?? "E: 0.\(Self.sixDigits(event)) 0003 0035 \(x(event))\t# line \(line)"
            text += "\n"
        }
        return Array(text.utf8)
    }

    /// `value` as six digits with leading zeros: an evemu time's fraction.
    static func sixDigits(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(6 - digits.count, 0)) + digits
    }

    static func open(_ bytes: [UInt8], skip: Bool = false) throws(RecordingError) -> RecordingStream {
        try RecordingStream(
            input: RecordingInput(bytes: bytes, name: "split.evemu"), format: .evemu,
            options: ReadOptions(skipBadLines: skip), splitSize: 1)
    }

    /// The line the second half starts at: the first whole line after the middle byte.
    static func firstLineOfSecondHalf(_ bytes: [UInt8]) -> Int {
        let middle = bytes.count / 2
        return bytes[..<middle].filter { $0 == UInt8(ascii: "\n") }.count
            + (bytes[middle - 1] == UInt8(ascii: "\n") ? 1 : 2)
    }

    @Test("a bad line in the second half is named by its line in the whole file")
    func badLineInSecondHalf() throws {
        let bytes = Self.file(replace: [150: "E: 0.000150 0003 0035 x"])
        #expect(Self.firstLineOfSecondHalf(bytes) < 150, "line 150 is in the second half")
        let error = #expect(throws: RecordingError.self) { try Self.open(bytes) }
        #expect(error?.line == 150)
        #expect(error?.field == "E value")
    }

    @Test("bad lines in both halves: the first half's is the error; skipped, both are counted and the first named")
    func badLinesInBothHalves() throws {
        let bytes = Self.file(replace: [60: "Q: what", 150: "E: 0.000150 0003 0035 x"])
        #expect((61..<150).contains(Self.firstLineOfSecondHalf(bytes)))
        let error = #expect(throws: RecordingError.self) { try Self.open(bytes) }
        #expect(error?.line == 60)
        let skipped = try Self.open(bytes, skip: true)
        #expect(skipped.info.skippedCount == 2)
        #expect(skipped.info.firstSkipped?.line == 60)
        #expect(skipped.eventCount == 198)
        let secondOnly = try Self.open(Self.file(replace: [150: "E: 0.000150 0003 0035 x"]), skip: true)
        #expect(secondOnly.info.skippedCount == 1)
        #expect(secondOnly.info.firstSkipped?.line == 150)
        #expect(secondOnly.eventCount == 199)
    }

    @Test("an axis the description lacks gets its range from both halves")
    func rangeFromBothHalves() throws {
        // x is -n in the first 100 events and n + 5000 after: lowest -100 at n = 100 (line 102, in the first half),
        // highest 5200 at n = 200 (line 202, in the second).
        let bytes = Self.file(x: { $0 <= 100 ? -$0 : $0 + 5000 })
        #expect((103...202).contains(Self.firstLineOfSecondHalf(bytes)))
        let stream = try Self.open(bytes)
        let axis = try #require(stream.info.description.absInfo[AbsCode.mtPositionX])
        #expect(axis.minimum == -100)
        #expect(axis.maximum == 5200)
        #expect(stream.info.inferredAxes == [AbsCode.mtPositionX])
        #expect(stream.eventCount == 200)
        #expect(stream.firstEventTime == EventTime(microseconds: 1))
    }

    @Test("a description line in the second half is read after the first half's, as in one pass")
    func descriptionInSecondHalf() throws {
        let bytes = Self.file(replace: [150: "A: 35 0 8000 0 0 0"])
        #expect(Self.firstLineOfSecondHalf(bytes) < 150)
        let stream = try Self.open(bytes)
        let axis = try #require(stream.info.description.absInfo[AbsCode.mtPositionX])
        #expect(axis.minimum == 0)
        #expect(axis.maximum == 8000)
        #expect(stream.info.inferredAxes.isEmpty)
        #expect(stream.eventCount == 199)
    }

    @Test("wherever the middle falls in a line (CRLF, comment, bad line, blank, description), one pass's answer")
    func everySplitPoint() throws {
        // Lines of every kind, with and without a bad line and a description line; a leading comment of 0 to 99
        // bytes moves the middle over each byte of them.
        let events =
            "E: 0.000001 0003 0035 7\r\nE: 0.000001 0000 0000 0\r\n# a comment line\r\n\r\n"
            + "E: 0.000002 0003 0035 -8 # trailing\r\nE: 0.000002 0000 0000 0\r\n"
            + "E: 0.000003 0003 0036 9\r\nE: 0.000003 0000 0000 0\r\n"
        var mismatches: [String] = []
        var runs = 0
        for bad in ["", "Z: bad\r\n"] {
            for description in ["", "A: 36 0 99 0 0 0\r\n"] {
                let body = events + bad + events + description + events
                for padding in 0..<100 {
                    let text = "# " + String(repeating: "p", count: padding) + "\r\nN: sweep\r\n" + body
                    let bytes = Array(text.utf8)
                    for skip in [false, true] {
                        let options = ReadOptions(skipBadLines: skip)
                        let one = StreamingReaderTests.streamed { () throws(RecordingError) in
                            try RecordingStream(
                                input: RecordingInput(bytes: bytes, name: "sweep"), options: options, splitSize: nil)
                        }
                        let two = StreamingReaderTests.streamed(readingAhead: true) { () throws(RecordingError) in
                            try RecordingStream(
                                input: RecordingInput(bytes: bytes, name: "sweep"), options: options, splitSize: 1)
                        }
                        runs += 1
                        if one != two {
                            mismatches.append(
                                "bad \(!bad.isEmpty), description \(!description.isEmpty), padding \(padding), skip \(skip): \(two) != \(one)"
                            )
                        }
                    }
                }
            }
        }
        #expect(runs == 800)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    @Test("no line starts within 64 KiB after the middle: read in one pass, the same answer")
    func middleInALongLine() throws {
        let text =
            "N: long\nE: 0.000001 0003 0035 7\n# " + String(repeating: "x", count: 200_000)
            + "\nE: 0.000002 0003 0035 x\nE: 0.000003 0003 0035 9\n"
        let bytes = Array(text.utf8)
        let error = #expect(throws: RecordingError.self) { try Self.open(bytes) }
        #expect(error?.line == 4)
        let skipped = try Self.open(bytes, skip: true)
        #expect(skipped.eventCount == 2)
        #expect(skipped.info.firstSkipped?.line == 4)
    }

    @Test("the second half's events come after the first half's, all of them, read ahead or not")
    func eventsInOrder() throws {
        let stream = try Self.open(Self.file(count: 5000))
        for readingAhead in [false, true] {
            var values: [Int32] = []
            try stream.forEachBatch(readingAhead: readingAhead) { batch in values += batch.map(\.value) }
            #expect(values == (1...5000).map { Int32($0) })
        }
    }
}
