import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles
import TouchTestKit

/// `TouchDecoder.takeAxis`, the usual event's inlined path, against `process(_:into:)` alone: fed the same events
/// (each one `takeAxis` refuses goes to `process`), two decoders must give the same outputs in the same order and
/// agree after every event on the time, the counts and the live fingers.
@Suite("Decoder: the axis path agrees with the full path")
struct TakeAxisTests {
    /// Decodes `events` both ways; returns how many events the axis path took.
    @discardableResult
    static func expectSameDecoding(_ events: [InputEvent], description: DeviceDescription, _ name: String) -> Int {
        var full = TouchDecoder(description: description)
        var fast = full
        var fullOutputs: [DecoderOutput] = []
        var fastOutputs: [DecoderOutput] = []
        var taken = 0
        for (index, event) in events.enumerated() {
            full.process(event, into: &fullOutputs)
            if fast.takeAxis(event) {
                taken += 1
            } else {
                fast.process(event, into: &fastOutputs)
            }
            guard
                fast.latestTime == full.latestTime, fast.diagnostics == full.diagnostics,
                fast.liveFingerCount == full.liveFingerCount, fast.needsResync == full.needsResync
            else {
                Issue.record("\(name): the decoders differ after event \(index) (\(event))")
                return taken
            }
        }
        #expect(fastOutputs == fullOutputs, "\(name)")
        return taken
    }

    @Test("every shared recording decodes alike both ways")
    func sharedRecordings() throws {
        try #require(SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage))
        var recordings = 0
        var taken = 0
        for file in SharedRecordingsTests.allRecordingFiles() where file != SharedRecordingsTests.fragment {
            guard let recording = try? RecordingLoader.load(path: SharedRecordings.path(file)) else { continue }
            taken += Self.expectSameDecoding(recording.events, description: recording.description, file)
            recordings += 1
        }
        #expect(recordings > 300)
        // The recordings are mostly protocol B touchscreens: the axis path must have taken events, or this
        // compared the full path with itself.
        #expect(taken > 100_000)
    }

    @Test("the cases the axis path refuses: tracking ids, a slot out of range, a time gone back, a drop")
    func refusedCases() {
        let script = EventScript()
        // Taken: the slot and both positions; refused: the tracking id and the report.
        script.slot(0).trackingID(1).position(x: 100, y: 100).report()
        // Slot 40 of 10 is refused (the full path counts it and addresses no slot); the positions after it are
        // taken and change nothing; slot 0 and its positions are taken.
        script.slot(40).position(x: 5, y: 5).slot(0).position(x: 110, y: 100).report()
        // A frame stamped before the last: all four refused (the full path counts the times).
        let resume = script.time
        script.time = EventTime(microseconds: 500_000)
        script.slot(0).position(x: 120, y: 90).report()
        script.time = resume
        // ABS_X and ABS_Y (the single-touch emulation) and the pressure are taken.
        script.abs(AbsCode.x, 7).abs(AbsCode.y, 9).abs(AbsCode.mtPressure, 30).report()
        // Taken up to the drop; then refused until the report that ends the dropping.
        script.slot(0).position(x: 130, y: 90).dropped()
        script.slot(0).position(x: 140, y: 80).report()
        // The first event after the drop is refused (the full path cancels what was live); its positions are taken.
        script.slot(0).position(x: 150, y: 80).report()
        // Taken: the slot; refused: the lift and the report.
        script.slot(0).trackingID(-1).report()
        let taken = Self.expectSameDecoding(script.events, description: TestDevices.touchscreen, "script")
        #expect(taken == 3 + 5 + 0 + 3 + 3 + 0 + 2 + 1)
    }
}
