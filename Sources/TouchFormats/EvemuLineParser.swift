import TouchCore

/// evemu text a line at a time (`EvemuReader` has the format): description lines build `description`, event lines
/// append to `events`, which a streaming reader empties as it goes. The same parser reads a whole file and a
/// stream, so both accept the same lines and fail with the same words.
struct EvemuLineParser: RecordingLineParser {
    let file: String
    var description = DeviceDescription()
    var hasDescription = false
    var events: [InputEvent] = []
    var version: String?
    var propertyByteOffset = 0
    var lastMaskType: UInt16?
    var maskByteOffset = 0
    /// The whole text has no NUL byte (the whole-file reader looks once), so event lines need not be searched.
    var textHoldsNoNul = false

    init(file: String) { self.file = file }

    var parsedDescription: DeviceDescription? { hasDescription ? description : nil }

    static var hasFastEvents: Bool { true }

    mutating func parseFastEvent(_ line: UnsafeBufferPointer<UInt8>, holdsNoNul: Bool) -> Bool {
        guard let event = EvemuEventLine.parse(line, holdsNoNul: holdsNoNul) else { return false }
        events.append(event)
        return true
    }

    mutating func parseEventRun(
        _ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, limit: Int
    ) -> (next: Int, lines: Int) {
        guard let base = bytes.baseAddress, from < to, limit > 0 else { return (from, 0) }
        precondition(from >= 0 && to <= bytes.count, "byte range outside the buffer")
        let end = base + to
        var line = base + from
        let before = events.count
        var memo = EvemuRecordLayout.TimeMemo()
        // Room for `limit` events made once: each is written with a bounds test, no uniqueness test per event.
        events.append(addingCapacity: limit) { room in
            while !room.isFull,
                let (event, newline) = EvemuRecordLayout.parseThroughNewline(line, end: end, memo: &memo)
            {
                room.append(event)
                line = newline + 1
            }
        }
        return (line - base, events.count - before)
    }

    mutating func parseLine(_ line: ArraySlice<UInt8>, number: Int) throws(RecordingError) {
        guard let first = line.first else { return }
        // Nearly every line is an event: read straight from its bytes (which then hold no NUL), or by the general
        // path below when it is anything but plain (a comment, a sign, a 0x, something to report).
        if first == UInt8(ascii: "E"), let event = EvemuEventLine.parse(line, holdsNoNul: textHoldsNoNul) {
            events.append(event)
            return
        }
        if let nul = line.firstIndex(of: 0) {
            throw error(
                .badLine, number, nil,
                "NUL byte at column \(nul - line.startIndex + 1): the text is damaged (or this is not evemu text)")
        }
        if first == ASCII.hash {
            noteVersion(line)
            return
        }
        if line.allSatisfy(ASCII.isSpace) { return }
        guard line.count >= 2, line[line.startIndex + 1] == ASCII.colon else {
            throw error(.badLine, number, nil, "expected a line starting with N:, I:, P:, B:, A:, L:, S:, E: or #")
        }
        var fields = FieldScanner(line[(line.startIndex + 2)...])
        switch first {
        case UInt8(ascii: "E"): try parseEvent(&fields, number)
        case UInt8(ascii: "N"):
            description.name = String(bytes: fields.rest())
            hasDescription = true
        case UInt8(ascii: "I"): try parseID(&fields, number)
        case UInt8(ascii: "P"): try parseProperties(&fields, number)
        case UInt8(ascii: "B"): try parseMask(&fields, number)
        case UInt8(ascii: "A"): try parseAbs(&fields, number)
        case UInt8(ascii: "L"), UInt8(ascii: "S"): break
        default:
            throw error(
                .badLine, number, nil,
                "unknown line type '\(String(bytes: line.prefix(2)))', expected N:, I:, P:, B:, A:, L:, S: or E:")
        }
    }

    private mutating func noteVersion(_ line: ArraySlice<UInt8>) {
        guard version == nil else { return }
        var fields = FieldScanner(line.dropFirst())
        guard let tag = fields.next(stopAtComment: false), String(bytes: tag) == "EVEMU",
            let number = fields.next(stopAtComment: false)
        else { return }
        version = String(bytes: number)
    }

    private mutating func parseEvent(_ fields: inout FieldScanner, _ number: Int) throws(RecordingError) {
        guard let timeField = fields.next(), let typeField = fields.next(), let codeField = fields.next(),
            let valueField = fields.next()
        else {
            throw error(.wrongFieldCount, number, "E", "expected 4 fields: sec.usec type code value")
        }
        if fields.next() != nil {
            throw error(.wrongFieldCount, number, "E", "expected 4 fields: sec.usec type code value, found more")
        }
        guard let time = NumberParsing.timestamp(timeField) else {
            throw error(.badNumber, number, "E time", "'\(String(bytes: timeField))' is not a sec.usec time")
        }
        guard let type = NumberParsing.hex16(typeField) else {
            throw error(.badNumber, number, "E type", "'\(String(bytes: typeField))' is not a hex event type")
        }
        guard let code = NumberParsing.hex16(codeField) else {
            throw error(.badNumber, number, "E code", "'\(String(bytes: codeField))' is not a hex event code")
        }
        guard let value = NumberParsing.int32(valueField) else {
            throw error(
                .badNumber, number, "E value", "'\(String(bytes: valueField))' is not a 32-bit decimal value")
        }
        guard EventCodeLimits.isKnown(type: type, code: code) else {
            throw error(
                .unknownCode, number, "E code",
                "type 0x\(String(type, radix: 16)) code 0x\(String(code, radix: 16)) is not an evdev code")
        }
        events.append(InputEvent(time: EventTime(microseconds: time), type: type, code: code, value: value))
    }

    private mutating func parseID(_ fields: inout FieldScanner, _ number: Int) throws(RecordingError) {
        var values: [UInt16] = []
        while let field = fields.next() {
            guard let value = NumberParsing.hex16(field) else {
                throw error(.badNumber, number, "I", "'\(String(bytes: field))' is not a 16-bit hex number")
            }
            values.append(value)
        }
        guard values.count == 4 else {
            throw error(.wrongFieldCount, number, "I", "expected 4 hex numbers: bus vendor product version")
        }
        description.id = DeviceID(bustype: values[0], vendor: values[1], product: values[2], version: values[3])
        hasDescription = true
    }

    private mutating func parseProperties(_ fields: inout FieldScanner, _ number: Int) throws(RecordingError) {
        let bytes = try hexBytes(&fields, number, "P")
        for (index, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                description.properties.insert(UInt16((propertyByteOffset + index) * 8 + bit))
            }
        }
        propertyByteOffset += bytes.count
        hasDescription = true
    }

    private mutating func parseMask(_ fields: inout FieldScanner, _ number: Int) throws(RecordingError) {
        guard let typeField = fields.next(), let type = NumberParsing.hex16(typeField) else {
            throw error(.badNumber, number, "B type", "expected a hex event type first")
        }
        if type != lastMaskType {
            lastMaskType = type
            maskByteOffset = 0
        }
        let bytes = try hexBytes(&fields, number, "B")
        defer { maskByteOffset += bytes.count }
        // The EV_SYN mask lists the supported types, which the other masks already imply.
        guard type != EventType.syn else {
            hasDescription = true
            return
        }
        for (index, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                description.codes[type, default: []].insert(UInt16((maskByteOffset + index) * 8 + bit))
            }
        }
        hasDescription = true
    }

    private mutating func parseAbs(_ fields: inout FieldScanner, _ number: Int) throws(RecordingError) {
        guard let codeField = fields.next(), let code = NumberParsing.hex16(codeField) else {
            throw error(.badNumber, number, "A code", "expected a hex axis code first")
        }
        guard code <= AbsCode.max else {
            throw error(.unknownCode, number, "A code", "0x\(String(code, radix: 16)) is beyond ABS_MAX")
        }
        var values: [Int32] = []
        while let field = fields.next() {
            guard let value = NumberParsing.int32(field) else {
                throw error(.badNumber, number, "A", "'\(String(bytes: field))' is not a decimal number")
            }
            values.append(value)
        }
        guard values.count == 4 || values.count == 5 else {
            throw error(.wrongFieldCount, number, "A", "expected min max fuzz flat [resolution] after the code")
        }
        description.absInfo[code] = AbsInfo(
            minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3],
            resolution: values.count == 5 ? values[4] : 0)
        description.codes[EventType.abs, default: []].insert(code)
        hasDescription = true
    }

    private func hexBytes(_ fields: inout FieldScanner, _ number: Int, _ field: String) throws(RecordingError)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        while let item = fields.next() {
            guard let value = NumberParsing.hex(item), value <= 0xff else {
                throw error(.badNumber, number, field, "'\(String(bytes: item))' is not a hex byte")
            }
            bytes.append(UInt8(value))
        }
        return bytes
    }

    private func error(_ kind: RecordingError.Kind, _ line: Int, _ field: String?, _ message: String)
        -> RecordingError
    {
        RecordingError(kind, file: file, line: line, field: field, message)
    }
}
