import TouchCore

/// Reads evemu-record text, versions 1.0 to 1.3.
///
/// Header lines: `N:` name, `I:` bus vendor product version (hex), `P:` property bytes, `B:` type and code mask
/// bytes (consecutive lines of one type continue its mask), `A:` code min max fuzz flat [resolution] (code in
/// hex, the rest decimal), `L:`/`S:` LED and switch states (ignored). Events: `E: sec.usec type code value`,
/// type and code in hex, value decimal and often zero-padded (`-001`). `#` starts a comment anywhere.
/// Times are kept as written: absolute in 1.1/1.2 files, relative in 1.3.
public enum EvemuReader {
    public static func parse(
        _ bytes: [UInt8], file: String, options: ReadOptions = ReadOptions()
    ) throws(RecordingError) -> Recording {
        let parsed = try parseRaw(bytes, file: file, options: options)
        return Recording(
            format: .evemu, description: parsed.description ?? DeviceDescription(),
            descriptionSource: parsed.description == nil ? .inferred : .embedded, events: parsed.events,
            version: parsed.version, skipped: parsed.skipped)
    }

    /// Parses without settling the description: nil when the file has no description lines.
    static func parseRaw(
        _ bytes: [UInt8], file: String, options: ReadOptions
    ) throws(RecordingError) -> ParsedRecording {
        var state = EvemuLineParser(file: file)
        state.events.reserveCapacity(bytes.count / 24)
        state.textHoldsNoNul = bytes.withUnsafeBufferPointer {
            ByteSearch.first(0, in: $0, from: 0, to: $0.count) == $0.count
        }
        var skipped: [RecordingError] = []
        try forEachLine(in: bytes) { (line, number) throws(RecordingError) in
            do throws(RecordingError) {
                try state.parseLine(line, number: number)
            } catch {
                guard options.skipBadLines else { throw error }
                skipped.append(error)
            }
        }
        return ParsedRecording(
            description: state.parsedDescription, events: state.events,
            version: state.version, skipped: skipped)
    }
}
