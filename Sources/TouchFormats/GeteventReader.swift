import TouchCore

/// Reads Android `getevent -lt` text (`[   1482.431904] EV_ABS  ABS_MT_POSITION_X  00000213`) and its numeric
/// form `getevent -t` (`[ 1482.431904] /dev/input/event2: 0003 0035 00000213`). Values are hex; `-l` prints
/// keys as `DOWN`/`UP`. Lines that are not events (`add device`, `name:`) are skipped, as getevent mixes them in.
public enum GeteventReader {
    public static func parse(_ bytes: [UInt8], file: String, options: ReadOptions = ReadOptions())
        throws(RecordingError)
        -> ParsedEvents
    {
        var parser = GeteventLineParser(file: file)
        var skipped: [RecordingError] = []
        try forEachLine(in: bytes) { (line, number) throws(RecordingError) in
            do throws(RecordingError) {
                try parser.parseLine(line, number: number)
            } catch {
                guard options.skipBadLines else { throw error }
                skipped.append(error)
            }
        }
        return ParsedEvents(events: parser.events, skipped: skipped)
    }
}

/// getevent text a line at a time (`GeteventReader` has the format); it says nothing of the device.
struct GeteventLineParser: RecordingLineParser {
    let file: String
    var events: [InputEvent] = []
    var parsedDescription: DeviceDescription? { nil }
    var version: String? { nil }

    init(file: String) { self.file = file }

    mutating func parseLine(_ line: ArraySlice<UInt8>, number: Int) throws(RecordingError) {
        guard let open = line.firstIndex(where: { !ASCII.isSpace($0) }), line[open] == UInt8(ascii: "["),
            let close = line.firstIndex(of: UInt8(ascii: "]"))
        else { return }
        events.append(try Self.parseEvent(line, open: open, close: close, number: number, file: file))
    }

    private static func parseEvent(
        _ line: ArraySlice<UInt8>, open: Int, close: Int, number: Int, file: String
    ) throws(RecordingError) -> InputEvent {
        var timeScanner = FieldScanner(line[(open + 1)..<close])
        guard let timeField = timeScanner.next(), let time = NumberParsing.timestamp(timeField) else {
            throw RecordingError(.badNumber, file: file, line: number, field: "time", "expected [sec.usec]")
        }
        var fields = FieldScanner(line[(close + 1)...])
        var parts: [ArraySlice<UInt8>] = []
        while let field = fields.next(stopAtComment: false) { parts.append(field) }
        if parts.first?.last == ASCII.colon { parts.removeFirst() }  // "/dev/input/event2:"
        guard parts.count == 3 else {
            throw RecordingError(
                .wrongFieldCount, file: file, line: number, field: nil,
                "expected 3 fields after the time: type code value")
        }
        let typeText = String(bytes: parts[0])
        let codeText = String(bytes: parts[1])
        let type: UInt16
        let code: UInt16
        if let numericType = NumberParsing.hex16(parts[0]), let numericCode = NumberParsing.hex16(parts[1]) {
            (type, code) = (numericType, numericCode)
        } else if let namedType = EventNames.type(named: typeText) {
            type = namedType
            if let named = EventNames.code(named: codeText), named.type == namedType {
                code = named.code
            } else if let numeric = NumberParsing.hex16(parts[1]) {
                code = numeric
            } else {
                throw RecordingError(
                    .unknownCode, file: file, line: number, field: "code",
                    "'\(codeText)' is not a known \(typeText) code")
            }
        } else {
            throw RecordingError(
                .unknownCode, file: file, line: number, field: "type", "'\(typeText)' is not an event type")
        }
        let valueText = String(bytes: parts[2])
        let value: Int32
        switch valueText {
        case "DOWN": value = 1
        case "UP": value = 0
        case "REPEAT": value = 2
        default:
            guard let raw = NumberParsing.hex(parts[2]), raw <= UInt64(UInt32.max) else {
                throw RecordingError(
                    .badNumber, file: file, line: number, field: "value", "'\(valueText)' is not a hex value")
            }
            value = Int32(bitPattern: UInt32(raw))
        }
        return InputEvent(time: EventTime(microseconds: time), type: type, code: code, value: value)
    }
}

/// Events (and skipped lines) from a format that carries no description.
public struct ParsedEvents: Sendable {
    public var events: [InputEvent]
    public var skipped: [RecordingError]
}
