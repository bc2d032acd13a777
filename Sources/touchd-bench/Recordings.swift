import Foundation
import TouchCore
import TouchFormats
import TouchRecordingFiles

/// Inputs for the benchmarks: real recordings looped to a size, and a synthetic 10-finger 240 Hz stream.
enum BenchRecordings {
    /// Concatenates the recordings' events, shifting times so they follow on, until `minimumEvents`; the first
    /// recording's description heads the file. Each pass ends with every finger up, so passes do not interfere.
    static func looped(_ paths: [String], minimumEvents: Int) throws -> Recording {
        let recordings = try paths.map { try RecordingLoader.load(path: $0) }
        var events: [InputEvent] = []
        events.reserveCapacity(minimumEvents + 100_000)
        var offset: Int64 = 0
        while events.count < minimumEvents {
            for recording in recordings {
                guard let first = recording.events.first?.time.microseconds else { continue }
                for event in recording.events {
                    var copy = event
                    copy.time = EventTime(microseconds: event.time.microseconds - first + offset)
                    events.append(copy)
                }
                offset = (events.last?.time.microseconds ?? offset) + 20_000
            }
        }
        // One description for all: the widest axes of the inputs, so every recording's values stay in range.
        var description = recordings[0].description
        for recording in recordings.dropFirst() {
            for (code, info) in recording.description.absInfo {
                if let existing = description.absInfo[code] {
                    description.absInfo[code]?.maximum = max(existing.maximum, info.maximum)
                } else {
                    description.absInfo[code] = info
                }
                description.codes[EventType.abs, default: []].insert(code)
            }
        }
        return Recording(format: .evemu, description: description, descriptionSource: .embedded, events: events)
    }

    /// Ten fingers moving in circles at `rate` Hz for `seconds`, then lifting: the fan-out load.
    static func tenFingers(rate: Int, seconds: Double) -> Recording {
        let description = DeviceDescription(
            name: "touchd bench 10-finger panel", properties: [InputProperty.direct],
            codes: [EventType.key: [KeyCode.touch]],
            absInfo: [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095),
                AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095),
                AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            ])
        var events: [InputEvent] = []
        let frames = Int(Double(rate) * seconds)
        let interval = Int64(1_000_000 / rate)
        func add(_ time: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(InputEvent(time: EventTime(microseconds: time), type: type, code: code, value: value))
        }
        for frame in 0...frames {
            let time = Int64(frame) * interval
            for finger in 0..<10 {
                add(time, EventType.abs, AbsCode.mtSlot, Int32(finger))
                if frame == frames {
                    add(time, EventType.abs, AbsCode.mtTrackingID, -1)
                    continue
                }
                if frame == 0 { add(time, EventType.abs, AbsCode.mtTrackingID, Int32(finger + 1)) }
                let angle = Double(frame) / Double(rate) * 2 * Double.pi + Double(finger)
                let centreX = 400.0 + Double(finger % 5) * 800
                let centreY = 1000.0 + Double(finger / 5) * 2000
                add(time, EventType.abs, AbsCode.mtPositionX, Int32(centreX + 300 * cos(angle)))
                add(time, EventType.abs, AbsCode.mtPositionY, Int32(centreY + 300 * sin(angle)))
            }
            add(time, EventType.syn, SynCode.report, 0)
        }
        return Recording(format: .evemu, description: description, descriptionSource: .embedded, events: events)
    }
}
