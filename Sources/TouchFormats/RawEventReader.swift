import TouchCore

/// Reads and writes raw `struct input_event` records, as `cat /dev/input/eventN > file` makes them on 64-bit
/// Linux: `tv_sec` (8 bytes), `tv_usec` (8), `type` (2), `code` (2), `value` (4), little-endian, 24 in all.
public enum RawEventReader {
    public static let recordSize = 24

    public static func parse(_ bytes: [UInt8], file: String) throws(RecordingError) -> [InputEvent] {
        let remainder = bytes.count % recordSize
        guard remainder == 0 else {
            throw RecordingError(
                .truncated, file: file, line: bytes.count / recordSize + 1, field: "input_event",
                "\(remainder) trailing bytes at offset \(bytes.count - remainder): expected whole 24-byte records")
        }
        var events: [InputEvent] = []
        events.reserveCapacity(bytes.count / recordSize)
        var badRecord: Int?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let seconds = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self))
                let micros = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self))
                let type = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self))
                let code = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self))
                let value = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self))
                // A time beyond 64-bit microseconds is garbage, not a crash (found by fuzzing).
                guard let time = EventTime.checked(seconds: seconds, microseconds: micros) else {
                    badRecord = offset / recordSize + 1
                    return
                }
                events.append(InputEvent(time: time, type: type, code: code, value: value))
                offset += recordSize
            }
        }
        if let badRecord {
            throw RecordingError(
                .badNumber, file: file, line: badRecord, field: "input_event time",
                "tv_sec/tv_usec out of range: not a 64-bit input_event dump?")
        }
        return events
    }

    public static func write(_ events: [InputEvent]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * recordSize)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for event in events {
            let seconds = event.time.microseconds / 1_000_000
            append(Int64(seconds))
            append(Int64(event.time.microseconds - seconds * 1_000_000))
            append(event.type)
            append(event.code)
            append(event.value)
        }
        return bytes
    }
}
