import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles
import TouchTestKit

/// The streaming reader (`RecordingStream`, for `touchd replay`) against the whole-file reader
/// (`RecordingLoader`): the same description, events, skipped lines and errors, for every shared recording and
/// for malformed input, with a 64 KiB buffer and with buffers so small that every line crosses reads.
@Suite("Streaming reader = whole-file reader")
struct StreamingReaderTests {
    /// What a reader made of a file.
    struct Outcome: Equatable, CustomStringConvertible {
        var info: RecordingInfo?
        var events: [InputEvent] = []
        var error: RecordingError?

        var description: String {
            if let error { return "error \(error)" }
            return "\(info.map { "\($0.format) \($0.description.name) \($0.descriptionSource)" } ?? "?"), "
                + "\(events.count) events, skipped \(info?.skippedCount ?? 0)"
        }
    }

    static func whole(_ path: String, options: ReadOptions = ReadOptions(), format: RecordingFormat? = nil)
        -> Outcome
    {
        do {
            let recording = try RecordingLoader.load(path: path, format: format, options: options)
            return Outcome(info: recording.info, events: recording.events)
        } catch {
            return Outcome(error: error)
        }
    }

    static func streamed(
        readingAhead: Bool = false, _ stream: () throws(RecordingError) -> RecordingStream
    ) -> Outcome {
        do {
            let stream = try stream()
            var events: [InputEvent] = []
            try stream.forEachBatch(readingAhead: readingAhead) { events.append(contentsOf: $0) }
            #expect(stream.eventCount == events.count)
            #expect(stream.firstEventTime == events.first?.time)
            return Outcome(info: stream.info, events: events)
        } catch {
            return Outcome(error: error)
        }
    }

    /// Streamed from disk with the default buffer, and from memory through `bufferSizes` (and batches of
    /// `batchSize` events): each must equal the whole-file outcome. Each is read twice: in order on one thread, and
    /// with every evemu file's first pass split in two halves (`SplitSurvey`, however small the file) and the second
    /// pass read ahead on a thread of its own.
    static func check(
        _ path: String, options: ReadOptions = ReadOptions(), format: RecordingFormat? = nil,
        bufferSizes: [Int] = [7], batchSize: Int = 3, threaded: Bool = true
    ) -> [String] {
        let expected = whole(path, options: options, format: format)
        var mismatches: [String] = []
        let fromDisk = streamed { () throws(RecordingError) in
            try RecordingStream(path: path, format: format, options: options)
        }
        if fromDisk != expected { mismatches.append("\(path) from disk: \(fromDisk) != \(expected)") }
        if threaded {
            let splitFromDisk = streamed(readingAhead: true) { () throws(RecordingError) in
                try RecordingStream(path: path, format: format, options: options, splitSize: 1)
            }
            if splitFromDisk != expected {
                mismatches.append("\(path) from disk in two threads: \(splitFromDisk) != \(expected)")
            }
        }
        guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else { return mismatches }
        for size in bufferSizes {
            for threaded in threaded ? [false, true] : [false] {
                let fromMemory = streamed(readingAhead: threaded) { () throws(RecordingError) in
                    try RecordingStream(
                        input: RecordingInput(bytes: bytes, name: path), format: format, options: options,
                        bufferSize: size, batchSize: batchSize, splitSize: threaded ? 1 : nil)
                }
                if fromMemory != expected {
                    mismatches.append(
                        "\(path) through \(size) bytes\(threaded ? " in two threads" : ""): \(fromMemory) != \(expected)"
                    )
                }
            }
        }
        return mismatches
    }

    func scratch(_ name: String, _ bytes: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-stream-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "every shared file (every format, descriptions and non-recordings too) reads the same streamed",
        .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
    func everySharedFile() throws {
        guard let walker = FileManager.default.enumerator(atPath: SharedRecordings.root) else { return }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = SharedRecordings.path(relative)
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        #expect(files.count > 390)
        var formats: Set<RecordingFormat> = []
        var mismatches: [String] = []
        for path in files.sorted() {
            if let format = Self.whole(path).info?.format { formats.insert(format) }
            mismatches += Self.check(path)
            // Skipping with two threads is the malformed files' test's (the shared ones have few bad lines).
            mismatches += Self.check(
                path, options: ReadOptions(skipBadLines: true), bufferSizes: [64 * 1024], threaded: false)
        }
        // Raw dumps are not among them: rawDumps below covers that format.
        #expect(formats == Set(RecordingFormat.allCases).subtracting([.raw]), "the shared files hold every text format")
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Malformed and unusual files of each format: (name, content).
    static let cases: [(String, String)] = [
        ("evemu-ok.evemu", "# EVEMU 1.3\nN: dev\nA: 35 0 99 0 0 0\nE: 0.1 0003 0035 5\nE: 0.1 0000 0000 0\n"),
        ("evemu-bad-field.evemu", "# EVEMU 1.3\nE: 0.1 0003 0035 5\nE: 0.2 0003 0035\nE: 0.3 0000 0000 0\n"),
        ("evemu-bad-last.evemu", "E: 0.1 0003 0035 5\nE: 0.1 0000 0000 0\nE: 0.2 0003 0035 x"),
        ("evemu-unknown.evemu", "N: dev\nX: what\nE: 0.1 0003 0035 5\n"),
        ("evemu-crlf.evemu", "# EVEMU 1.2\r\nN: crlf\r\nA: 35 0 99 0 0 0\r\nE: 0.1 0003 0035 5\r\nE: 0.1 0 0 0\r\n"),
        ("evemu-late-header.evemu", "E: 0.1 0003 0035 5\nE: 0.1 0000 0000 0\nN: late\nA: 36 0 50 0 0 0\n"),
        ("evemu-bad-abs.evemu", "N: dev\nA: 35 0 x 0 0\nE: 0.1 0003 0035 5\n"),
        ("evemu-time.evemu", "E: 99999999999999.000001 0003 0035 5\n"),
        ("evemu-code.evemu", "E: 0.1 0003 0099 5\n"),
        ("evemu-blank.evemu", "# EVEMU 1.3\n\n   \n\t\nE: 0.1 0003 0035 5\n\n"),
        (
            "evemu-forms.evemu",
            "E:0.1 0003 0035 5\nE: +1.5 0003 0035 5\nE: 1.5 0x3 0x35 +7\nE: 0001.5000009 00003 035 -001\n"
                + "E:\t2.25\t3\t35\t-2147483648 \t\nE: 3 0003 0035 4 # comment\nE: 0000000000000000004.1 3 35 1\n"
                + "E: 5.000000000001 0003 0035 2147483647\n"
        ),
        // A last line without `\n`, longer than the text before it: the end of the input is found after the
        // line has moved to the front of the buffer, over where it was.
        ("evemu-unended.evemu", "E: 0.1 0003 0035 5\nE: 0.2 0003 0035 6 # a trailing comment, and no newline"),
        (
            "record-unended.yml",
            "version: 1\ndevices:\n- evdev:\n    name: dev\n  events:\n  - evdev:\n    - [0, 1, 3, 53, 5]"
                + "\n    #       a comment line longer than all the text before it, with no newline after it"
        ),
        ("evemu-overflow.evemu", "E: 1.0 0003 0035 2147483648\n"),
        ("evemu-nul.evemu", "# EVEMU 1.3\nE: 0.1 0003 0035 5\nE: 0.2 0003 0035 5\u{0}\n"),
        ("evemu-long.evemu", "# " + String(repeating: "x", count: 70_000) + "\nE: 0.1 0003 0035 5\n"),
        ("empty.evemu", ""),
        ("bom.evemu", "\u{FEFF}# EVEMU 1.3\nE: 0.1 0003 0035 5\n"),
        (
            "record.yml",
            "version: 1\ndevices:\n- node: /dev/input/event5\n  evdev:\n    name: \"dev\"\n"
                + "    absinfo:\n      53: [0, 99, 0, 0, 0]\n      54: [0, 50, 0, 0, 0]\n"
                + "  events:\n  - evdev:\n    - [0, 1, 3, 53, 5]\n    - [0, 1, 0, 0, 0]\n"
                + "  - libinput:\n    - {}\n  - evdev:\n    - [0, 2, 3, 54, 7] # y\n    - [0, 2, 0, 0, 0]\n"
        ),
        (
            "record-event-error-then-syntax.yml",
            "version: 1\ndevices:\n- evdev:\n    name: dev\n  events:\n  - evdev:\n    - [0, x, 3, 53, 5]\n"
                + "  - evdev:\n    - [0, 1, 3, 53, 5]\n   bad: indent\n"
        ),
        (
            "record-event-error-then-no-version.yml",
            "devices:\n- evdev:\n    name: dev\n  events:\n  - evdev:\n    - [0, 1, 99, 53, 5]\n"
        ),
        (
            "record-events-first.yml",
            "version: 1\ndevices:\n- events:\n  - evdev:\n    - [0, 1, 3, 53, 5]\n    - [0, 1, 0, 0, 0]\n"
                + "  evdev:\n    name: late\n    absinfo:\n      53: [0, 9, 0, 0, 0]\n"
        ),
        (
            "record-duplicates.yml",
            "version: 1\ndevices:\n- evdev:\n    name: one\n  events:\n  - evdev:\n    - [0, 1, 3, 53, 5]\n"
                + "  events:\n  - evdev:\n    - [0, 9, 3, 53, 9]\n- evdev:\n    name: two\n  events:\n"
                + "  - evdev:\n    - [0, 1, 3, 53, 1]\n"
                + "devices:\n- evdev:\n    name: three\n  events:\n  - evdev:\n    - [0, 3, 3, 53, 3]\n"
        ),
        ("record-flow-events.yml", "version: 1\ndevices:\n- evdev:\n    name: flow\n  events: [1, 2]\n"),
        (
            "record-crlf.yml",
            "version: 1\r\ndevices:\r\n- evdev:\r\n    name: dev\r\n  events:\r\n  - evdev:\r\n    - [0, 1, 3, 53, 5]\r\n"
        ),
        (
            "record-time.yml",
            "version: 1\ndevices:\n- evdev:\n    name: d\n  events:\n  - evdev:\n    - [9223372036854, 0, 3, 53, 1]\n"
        ),
        ("record-version.yml", "version: 2\ndevices:\n- evdev:\n    name: d\n"),
        (
            "getevent.txt",
            "add device 1: /dev/input/event2\n  name: \"x\"\n[  1.000001] EV_ABS ABS_MT_POSITION_X 00000010\n[  1.000001] EV_SYN SYN_REPORT 00000000\n[ 2.5] 0003 0035 zz\n[ 3.0] 0003 0035 00000011\n"
        ),
        ("getevent-time.txt", "[  x] EV_ABS ABS_MT_POSITION_X 00000010\n"),
        (
            "evtest.txt",
            "Input driver version is 1.0.1\nInput device name: \"dev\"\nSupported events:\n  Event type 3 (EV_ABS)\n"
                + "    Event code 53 (ABS_MT_POSITION_X)\n      Value      0\n      Min        0\n      Max     4095\n"
                + "Event: time 1.000001, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 10\n"
                + "Event: time 1.000001, -------------- SYN_REPORT ------------\n"
                + "Event: time x, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 10\n"
                + "Event: time 2.000001, type 3 (EV_ABS), code 54 (ABS_MT_POSITION_Y), value 11\n"
        ),
        ("unknown.bin", "hello world\nthis is not a recording\n"),
    ]

    @Test("malformed and unusual text files: the same events or the same error, at every buffer size")
    func malformedText() throws {
        var mismatches: [String] = []
        for (name, text) in Self.cases {
            let path = try scratch(name, Array(text.utf8))
            for skip in [false, true] {
                mismatches += Self.check(
                    path, options: ReadOptions(skipBadLines: skip), bufferSizes: [1, 2, 3, 7, 64], batchSize: 1)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("raw dumps: a bad time and a partial record are named as the whole-file reader names them")
    func rawDumps() throws {
        let good = InputEvent(time: EventTime(microseconds: 1_500_000), type: 3, code: 0x35, value: 1)
        let report = InputEvent(time: EventTime(microseconds: 1_500_000), type: 0, code: 0, value: 0)
        let events = Array(repeating: [good, report], count: 40).flatMap { $0 }
        var badTime = RawEventReader.write(events)
        // Record 31's tv_sec near Int64.max: beyond 64-bit microseconds.
        for index in 0..<8 { badTime[30 * 24 + index] = index == 7 ? 0x7f : 0xff }
        var mismatches: [String] = []
        for (name, bytes) in [
            ("ok.raw", RawEventReader.write(events)), ("bad-time.raw", badTime),
            ("truncated.raw", RawEventReader.write(events) + [1, 2, 3]), ("both.raw", badTime + [1]),
            ("short.raw", [1, 2, 3]),
        ] {
            mismatches += Self.check(
                try scratch(name, bytes), format: name == "short.raw" ? .raw : nil, bufferSizes: [1, 7, 24, 25, 100],
                batchSize: 1)
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("a pipe is read once into memory and replays the same; the file names itself as the loader does")
    func pipeAndNames() throws {
        let text = Self.cases[0].1
        let path = try scratch("piped.evemu", Array(text.utf8))
        let fifo = path + ".fifo"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat '\(path)' > '\(fifo)'"]
        try writer.run()
        let piped = Self.streamed { () throws(RecordingError) in try RecordingStream(path: fifo) }
        writer.waitUntilExit()
        let expected = Self.whole(path)
        #expect(piped.events == expected.events)
        #expect(piped.info?.description == expected.info?.description)
        #expect(piped.events.count == 2)
        let missing = Self.streamed { () throws(RecordingError) in try RecordingStream(path: "/nonexistent/x") }
        #expect(missing.error?.description == "/nonexistent/x: cannot open: No such file or directory")
        let directory = Self.streamed { () throws(RecordingError) in try RecordingStream(path: "/tmp") }
        #expect(directory.error?.description == "/tmp: is a directory, not a recording")
    }
}
