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

    /// The device description in a description file's bytes (`.desc`/`.prop`/`.device`, or any evemu recording
    /// with a header), named `file` in messages.
    public static func description(in bytes: [UInt8], file: String) throws(RecordingError) -> DeviceDescription {
        let parsed = try parseRaw(ByteOrderMark.stripped(bytes), file: file, options: ReadOptions())
        guard let description = parsed.description else {
            throw RecordingError(
                .badDescription, file: file, "no device description (N:, I:, P:, B: or A: lines) in this file")
        }
        return description
    }

    /// Parses without settling the description: nil when the file has no description lines.
    static func parseRaw(
        _ bytes: [UInt8], file: String, options: ReadOptions
    ) throws(RecordingError) -> ParsedRecording {
        var state = EvemuLineParser(file: file)
        // A plain event line has at least 24 bytes with its `\n`: room for every run's events, made once.
        state.events.reserveCapacity(bytes.count / 24 + 1)
        let count = bytes.count
        // Where the first NUL at or after `start` is (`count` when none): the runs of event lines stop before it.
        var nul = bytes.withUnsafeBufferPointer { ByteSearch.first(0, in: $0, from: 0, to: count) }
        state.textHoldsNoNul = nul == count
        var skipped: [RecordingError] = []
        // Lines split as `forEachLine` splits them: runs of plain event lines read in one loop from the file's bytes
        // (no slice, no call per line), and the line each run stops at on its own, by the fast path or `parseLine`.
        var start = 0
        var number = 1
        while start < count {
            if nul < start {
                nul = bytes.withUnsafeBufferPointer { ByteSearch.first(0, in: $0, from: start, to: count) }
            }
            let run = bytes.withUnsafeBufferPointer { buffer in
                state.parseEventRun(buffer, from: start, to: nul, limit: (nul - start) / 24 + 1)
            }
            start = run.next
            number += run.lines
            guard start < count else { break }
            let lineNul = nul
            let (end, lineEnd, fast) = bytes.withUnsafeBufferPointer { buffer in
                let end = ByteSearch.first(ASCII.newline, in: buffer, from: start, to: count)
                var lineEnd = end
                if lineEnd > start && buffer[lineEnd - 1] == ASCII.carriageReturn { lineEnd -= 1 }
                let line = UnsafeBufferPointer(rebasing: buffer[start..<lineEnd])
                return (end, lineEnd, state.parseFastEvent(line, holdsNoNul: lineEnd <= lineNul))
            }
            if !fast {
                do throws(RecordingError) {
                    try state.parseLine(bytes[start..<lineEnd], number: number)
                } catch {
                    guard options.skipBadLines else { throw error }
                    skipped.append(error)
                }
            }
            number += 1
            start = end + 1
        }
        return ParsedRecording(
            description: state.parsedDescription, events: state.events,
            version: state.version, skipped: skipped)
    }
}
