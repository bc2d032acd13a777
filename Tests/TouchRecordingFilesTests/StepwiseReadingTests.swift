import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles
import TouchTestKit

/// A stream read a batch at a time between other work (`rewind`, `nextBatch`: `touchd run --replay`): the events
/// the whole-file reader gives, pass after pass, never more than a batch handed over at once.
@Suite(
    "Stepwise reading", .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct StepwiseReadingTests {
    /// Over a hundred events each (most thousands), in four formats whose passes go a batch at a time, and libinput record YAML,
    /// whose parser reads a document whole, so its pass is one step.
    static let files: [(path: String, batched: Bool)] = [
        ("tslib/Atmel_maXTouch_Touchscreen.ts-verify-1.events", true),
        ("chromiumos-firmware_TouchMTB/original/data/finger_crossing.top_right_to_bottom_left.slow.dat", true),
        ("android-getevent-MonkeyHelper/original/tablet-two-finger-drag.txt", true),
        ("libinput-record-yaml/ITE-8595-Touchpad_Acer-SW5-012.two-finger-scroll.yml", false),
    ]

    @Test(
        "three passes, 7 events (or a 64-byte buffer's worth of a raw dump) at most a step: the whole-file reader's events each time"
    )
    func passes() throws {
        for (file, batched) in Self.files {
            let path = SharedRecordings.path(file)
            let expected = try RecordingLoader.load(path: path).events
            #expect(expected.count > 100, "\(file) shows nothing of batches")
            let bytes = try #require(FileManager.default.contents(atPath: path))
            let stream = try RecordingStream(
                input: RecordingInput(bytes: Array(bytes), name: path), bufferSize: 64, batchSize: 7, splitSize: nil)
            for pass in 1...3 {
                try stream.rewind()
                var events: [InputEvent] = []
                var largestStep = 0
                while true {
                    var step = 0
                    let more = try stream.nextBatch { batch in
                        step += batch.count
                        events += batch
                    }
                    largestStep = max(largestStep, step)
                    if !more { break }
                }
                #expect(events == expected, "\(file), pass \(pass)")
                // 64 bytes hold 2 raw records of 24 bytes; a line format's step is one batch.
                if batched { #expect(largestStep <= 7, "\(file), pass \(pass)") }
            }
        }
    }

    @Test("a step after the pass's end hands nothing; rewind reads from the start again")
    func afterTheEnd() throws {
        let path = SharedRecordings.path(Self.files[0].path)
        let stream = try RecordingStream(path: path, splitSize: nil)
        try stream.rewind()
        var count = 0
        while try stream.nextBatch({ count += $0.count }) {}
        #expect(count == stream.eventCount)
        var after = 0
        #expect(try stream.nextBatch { after += $0.count } == false)
        #expect(after == 0)
        try stream.rewind()
        var first: InputEvent?
        _ = try stream.nextBatch { if first == nil { first = $0.first } }
        #expect(first?.time == stream.firstEventTime)
    }
}
