import TouchCore

/// Reads and writes raw `struct input_event` records, as `cat /dev/input/eventN > file` makes them on 64-bit
/// Linux: `tv_sec` (8 bytes), `tv_usec` (8), `type` (2), `code` (2), `value` (4), little-endian, 24 in all.
public enum RawEventReader {
    public static let recordSize = 24

    public static func parse(_ bytes: [UInt8], file: String) throws(RecordingError) -> [InputEvent] {
        guard bytes.count % recordSize == 0 else { throw truncation(byteCount: bytes.count, file: file) }
        var events: [InputEvent] = []
        events.reserveCapacity(bytes.count / recordSize)
        if let badRecord = bytes.withUnsafeBytes({ decode($0, into: &events) }) {
            throw badTime(record: badRecord, file: file)
        }
        return events
    }

    /// Appends the events of whole records in `raw` (a multiple of 24 bytes) to `events`.
    /// - Returns: the 1-based number, within `raw`, of a record whose time is out of range; decoding stops there.
    static func decode(_ raw: UnsafeRawBufferPointer, into events: inout [InputEvent]) -> Int? {
        var offset = 0
        while offset + recordSize <= raw.count {
            let seconds = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self))
            let micros = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self))
            let type = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self))
            let code = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self))
            let value = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self))
            // A time beyond 64-bit microseconds is garbage, not a crash (the fuzz targets feed such times).
            guard let time = EventTime.checked(seconds: seconds, microseconds: micros) else {
                return offset / recordSize + 1
            }
            events.append(InputEvent(time: time, type: type, code: code, value: value))
            offset += recordSize
        }
        return nil
    }

    /// A file of `byteCount` bytes that is not whole records.
    static func truncation(byteCount: Int, file: String) -> RecordingError {
        let remainder = byteCount % recordSize
        return RecordingError(
            .truncated, file: file, line: byteCount / recordSize + 1, field: "input_event",
            "\(remainder) trailing bytes at offset \(byteCount - remainder): expected whole 24-byte records")
    }

    static func badTime(record: Int, file: String) -> RecordingError {
        RecordingError(
            .badNumber, file: file, line: record, field: "input_event time",
            "tv_sec/tv_usec out of range: not a 64-bit input_event dump?")
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
