import TouchCore

/// libinput record YAML's pass: MiniYAML parses a line at a time from a `LineReader`, and hands over each item
/// of the device's `events` list as it is parsed, so the tree it builds holds the description but no events.
/// Errors come in `LibinputRecordReader.parse`'s order: the YAML's anywhere in the file first, then the
/// version, the device and its description, then the first bad event.
struct LibinputPass: EventPass {
    var lines: LineReader
    let file: String
    let batchSize: Int
    var deviceIndex = 0

    init(lines: LineReader, file: String, batchSize: Int) {
        self.lines = lines
        self.lines.keepsCarriageReturn = true
        self.file = file
        self.batchSize = batchSize
    }

    mutating func run(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> FileFacts {
        lines.rewind()
        let deviceIndex = deviceIndex
        let batchSize = batchSize
        var events = LibinputRecordReader.EventItems(device: deviceIndex, file: file)
        var eventError: RecordingError?
        var parser = MiniYAMLParser(source: try YAMLStreamLines(lines), file: file)
        // The parser keeps its item handler, so `batch` must seem to escape; it is done with before this returns.
        let document = try withoutActuallyEscaping(batch) { batch in
            parser.eventItem = { device, frame in
                guard device == deviceIndex, eventError == nil else { return }
                do throws(RecordingError) {
                    try events.append(frame)
                } catch {
                    eventError = error
                }
                if events.events.count >= batchSize {
                    batch(events.events[...])
                    events.events.removeAll(keepingCapacity: true)
                }
            }
            defer { parser.eventItem = nil }
            return Result { () throws(RecordingError) in try parser.parseDocument() }
        }.get()
        let (device, description) = try LibinputRecordReader.readDevice(document, index: deviceIndex, file: file)
        if let eventError { throw eventError }
        // An events list the parser kept (not a block list of frames) still goes the way the whole-file reader
        // takes it.
        for frame in device["events"]?.items ?? [] { try events.append(frame) }
        if !events.events.isEmpty { batch(events.events[...]) }
        return FileFacts(description: description, version: "1")
    }
}

/// YAML lines from a `LineReader`, split as `YAMLTextLines` splits a whole text: at `\n` but not at `\r\n`,
/// which a String holds as one character; a line ending in `\r` runs on into the next.
struct YAMLStreamLines: YAMLLineSource {
    private var reader: LineReader
    private var number = 0
    var current: YAMLLine?

    init(_ reader: LineReader) throws(RecordingError) {
        self.reader = reader
        try advance()
    }

    mutating func advance() throws(RecordingError) {
        current = nil
        while let text = try nextText() {
            number += 1
            if let line = YAMLLine(text[...], number: number) {
                current = line
                return
            }
        }
    }

    private mutating func nextText() throws(RecordingError) -> String? {
        guard let first = try reader.next() else { return nil }
        var bytes = Array(first)
        while bytes.last == ASCII.carriageReturn && reader.endedWithNewline {
            bytes.append(ASCII.newline)
            guard let more = try reader.next() else { break }
            bytes.append(contentsOf: more)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
