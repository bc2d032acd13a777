import TouchCore

/// Reads `evtest` text: a header with the device name, id and each axis's `Value/Min/Max/Fuzz/Flat/Resolution`,
/// then `Event: time 18810.145235, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 2091` lines and
/// `Event: time …, -------------- SYN_REPORT ------------` separators.
public enum EvtestReader {
    public static func parse(_ bytes: [UInt8], file: String, options: ReadOptions = ReadOptions())
        throws(RecordingError)
        -> Recording
    {
        var parser = EvtestLineParser(file: file)
        var skipped: [RecordingError] = []
        try forEachLine(in: bytes) { (line, number) throws(RecordingError) in
            do throws(RecordingError) {
                try parser.parseLine(line, number: number)
            } catch {
                guard options.skipBadLines else { throw error }
                skipped.append(error)
            }
        }
        return Recording(
            format: .evtest, description: parser.parsedDescription ?? DeviceDescription(),
            descriptionSource: parser.parsedDescription == nil ? .inferred : .embedded, events: parser.events,
            skipped: skipped)
    }
}

/// evtest text a line at a time (`EvtestReader` has the format): header lines build the description, event lines
/// append to `events`. Only an event line can be malformed; the header's other lines are read as far as they go.
struct EvtestLineParser: RecordingLineParser {
    let file: String
    var events: [InputEvent] = []
    var version: String? { nil }
    private var description = DeviceDescription()
    private var hasDescription = false
    private var currentType: UInt16?
    private var currentAxis: UInt16?

    init(file: String) { self.file = file }

    var parsedDescription: DeviceDescription? { hasDescription ? description : nil }

    mutating func parseLine(_ lineBytes: ArraySlice<UInt8>, number: Int) throws(RecordingError) {
        let line = String(bytes: lineBytes)
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("Event: time ") {
            events.append(try Self.parseEvent(trimmed, number: number, file: file))
        } else if trimmed.hasPrefix("Input device name: ") {
            description.name = String(trimmed.dropFirst("Input device name: ".count)).trimmingQuotes()
            hasDescription = true
        } else if trimmed.hasPrefix("Input device ID: ") {
            let words = trimmed.split(separator: " ")
            func field(_ name: String) -> UInt16 {
                guard let index = words.firstIndex(of: Substring(name)), index + 1 < words.count else { return 0 }
                return NumberParsing.hex16(ArraySlice(words[index + 1].utf8)) ?? 0
            }
            description.id = DeviceID(
                bustype: field("bus"), vendor: field("vendor"), product: field("product"), version: field("version")
            )
        } else if trimmed.hasPrefix("Event type ") {
            currentType = Self.number(after: "Event type ", in: trimmed).flatMap { UInt16(exactly: $0) }
            currentAxis = nil
        } else if trimmed.hasPrefix("Event code "), let type = currentType {
            guard let code = Self.number(after: "Event code ", in: trimmed).flatMap({ UInt16(exactly: $0) }) else {
                return
            }
            description.codes[type, default: []].insert(code)
            currentAxis = type == EventType.abs ? code : nil
            if let axis = currentAxis { description.absInfo[axis] = AbsInfo(minimum: 0, maximum: 0) }
        } else if let axis = currentAxis, let space = trimmed.firstIndex(of: " ") {
            let key = trimmed[trimmed.startIndex..<space]
            guard let value = Int32(trimmed[space...].trimmingSpaces()) else { return }
            switch key {
            case "Value": description.absInfo[axis]?.value = value
            case "Min": description.absInfo[axis]?.minimum = value
            case "Max": description.absInfo[axis]?.maximum = value
            case "Fuzz": description.absInfo[axis]?.fuzz = value
            case "Flat": description.absInfo[axis]?.flat = value
            case "Resolution": description.absInfo[axis]?.resolution = value
            default: break
            }
        } else if trimmed.hasPrefix("Property type "),
            let property = Self.number(after: "Property type ", in: trimmed)
        {
            description.properties.insert(UInt16(clamping: property))
        }
    }

    private static func number(after prefix: String, in text: Substring) -> Int? {
        Int(text.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    private static func parseEvent(_ line: Substring, number: Int, file: String) throws(RecordingError) -> InputEvent {
        let body = line.dropFirst("Event: time ".count)
        guard let comma = body.firstIndex(of: ","),
            let time = NumberParsing.timestamp(ArraySlice(body[body.startIndex..<comma].utf8))
        else {
            throw RecordingError(
                .badNumber, file: file, line: number, field: "time", "expected 'Event: time sec.usec,'")
        }
        let rest = body[body.index(after: comma)...]
        let eventTime = EventTime(microseconds: time)
        if rest.contains("SYN_REPORT") && rest.contains("---") {
            return InputEvent(time: eventTime, type: EventType.syn, code: SynCode.report, value: 0)
        }
        if rest.contains("SYN_MT_REPORT") && !rest.contains("type ") {
            return InputEvent(time: eventTime, type: EventType.syn, code: SynCode.mtReport, value: 0)
        }
        if rest.contains("SYN_DROPPED") && !rest.contains("type ") {
            return InputEvent(time: eventTime, type: EventType.syn, code: SynCode.dropped, value: 0)
        }
        func value(_ key: String) -> Int64? {
            guard let range = rest.firstRange(of: key) else { return nil }
            let digits = rest[range.upperBound...].prefix { $0 == "-" || $0.isNumber }
            return Int64(digits)
        }
        guard let type = value("type ").flatMap({ UInt16(exactly: $0) }),
            let code = value("code ").flatMap({ UInt16(exactly: $0) }),
            let eventValue = value("value ").flatMap({ Int32(exactly: $0) })
        else {
            throw RecordingError(
                .wrongFieldCount, file: file, line: number, field: nil,
                "expected 'type N (...), code N (...), value N'")
        }
        return InputEvent(time: eventTime, type: type, code: code, value: eventValue)
    }
}

extension String {
    fileprivate func trimmingQuotes() -> String {
        var text = Substring(self)
        if text.first == "\"" { text = text.dropFirst() }
        if text.last == "\"" { text = text.dropLast() }
        return String(text)
    }
}
