import Testing
import TouchCore
import TouchFormats
import TouchTestKit

/// The times `touchd record` writes: evemu-record's, so that evemu-play keeps every gap.
@Suite("evemu writer: times as evemu-record writes them")
struct EvemuWriterTimeTests {
    /// Three frames as the kernel stamps them (CLOCK_MONOTONIC), 10,787 µs and then 17,240 µs apart: the first
    /// gaps of the Dell Canvas and Wacom DTH2242 recordings in the issue.
    static let kernelStart: Int64 = 84_361 * 1_000_000 + 123_456
    static let frameTimes: [Int64] = [kernelStart, kernelStart + 10_787, kernelStart + 10_787 + 17_240]

    static var events: [InputEvent] {
        let script = EventScript(start: EventTime(microseconds: frameTimes[0]))
        script.slot(0).trackingID(7).position(x: 100, y: 200).key(KeyCode.touch, 1).report()
        script.time = EventTime(microseconds: frameTimes[1])
        script.position(x: 104, y: 203).report()
        script.time = EventTime(microseconds: frameTimes[2])
        script.trackingID(-1).key(KeyCode.touch, 0).report()
        return script.events
    }

    /// The `E:` lines without their comments.
    static func eventFields(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.hasPrefix("E:") }.map { $0.prefix { $0 != "\t" } }
    }

    @Test("the first event is at 0.000001 and the others keep their distance from it (libevemu's evemu_record)")
    func firstEventTime() {
        let text = EvemuWriter.write(
            description: TestDevices.touchscreen, events: Self.events, timeBase: .relativeToFirstEvent)
        // evemu_record: offset = first time - 1; each time is written as time - offset.
        #expect(
            Self.eventFields(text) == [
                "E: 0.000001 0003 002f 0000", "E: 0.000001 0003 0039 0007", "E: 0.000001 0003 0035 0100",
                "E: 0.000001 0003 0036 0200", "E: 0.000001 0001 014a 0001", "E: 0.000001 0000 0000 0000",
                "E: 0.010788 0003 0035 0104", "E: 0.010788 0003 0036 0203", "E: 0.010788 0000 0000 0000",
                "E: 0.028028 0003 0039 -001", "E: 0.028028 0001 014a 0000", "E: 0.028028 0000 0000 0000",
            ])
    }

    @Test("written a read at a time, as touchd record does, the lines are those of the whole stream at once")
    func inPieces() {
        let events = Self.events
        var lines = EvemuWriter.EventLines(timeBase: .relativeToFirstEvent)
        var pieces = ""
        var start = 0
        for (index, event) in events.enumerated() where event.isSynReport {
            lines.append(events[start...index], to: &pieces)
            start = index + 1
        }
        let whole = EvemuWriter.write(description: DeviceDescription(), events: events, timeBase: .relativeToFirstEvent)
        #expect(whole.hasSuffix(pieces))
        #expect(pieces.split(separator: "\n").count == events.count)
        // The comment on each SYN_REPORT: milliseconds since the previous one, also across reads.
        #expect(
            pieces.split(separator: "\n").filter { $0.contains("SYN_REPORT") }.map { $0.split(separator: " ").last! }
                == ["+0ms", "+10ms", "+17ms"])
    }

    @Test("evemu-play's pacing keeps every gap between frames, the first included")
    func evemuPlayKeepsGaps() throws {
        let text = EvemuWriter.write(
            description: TestDevices.touchscreen, events: Self.events, timeBase: .relativeToFirstEvent)
        let read = try EvemuReader.parse(Array(text.utf8), file: "recorded.evemu", options: ReadOptions())
        let played = EvemuPlayModel.frameTimes(read.events)
        let playedGaps = zip(played.dropFirst(), played).map { $0 - $1 }
        // The original gaps, less evemu-play's 150 µs margin at most.
        #expect(playedGaps.count == 2)
        for (gap, original) in zip(playedGaps, [Int64(10_787), 17_240]) {
            #expect(Swift.abs(gap - original) <= 1_000, "gap \(gap) µs, recorded \(original) µs")
        }
    }

    @Test("the model of evemu-play loses the first gap of a file whose first time is 0.000000, as the issue saw")
    func modelReproducesTheIssue() {
        let zeroBased = Self.events.map {
            InputEvent(
                time: EventTime(microseconds: $0.time.microseconds - Self.kernelStart), type: $0.type, code: $0.code,
                value: $0.value)
        }
        let played = EvemuPlayModel.frameTimes(zeroBased)
        #expect(played[1] - played[0] == 0)
        #expect(played[2] - played[1] == 17_240 - 150)
    }
}

/// When evemu-play (evemu 2.7, `evemu_read_event_realtime`) writes each SYN_REPORT, with no time spent outside
/// its sleeps. Its rule: a zero `evtime` means "no previous event" and takes the event's time; when the event is
/// more than 300 µs after `evtime`, it sleeps that long less 150 µs and moves `evtime` to the event.
enum EvemuPlayModel {
    static func frameTimes(_ events: [InputEvent]) -> [Int64] {
        var evtime: Int64 = 0
        var clock: Int64 = 0
        var reports: [Int64] = []
        for event in events {
            if evtime == 0 { evtime = event.time.microseconds }
            let usec = event.time.microseconds - evtime
            if usec > 300 {
                clock += usec - 150
                evtime = event.time.microseconds
            }
            if event.isSynReport { reports.append(clock) }
        }
        return reports
    }
}
