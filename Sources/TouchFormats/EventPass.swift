import TouchCore

/// One pass over a recording's events from its first byte, for `RecordingStream`: events go out in batches, so
/// no pass holds more than a batch of them.
protocol EventPass {
    /// Reads the input from its start. Events go to `batch` in order, a batch at a time; a malformed line goes
    /// to `skip` when lines are skipped (`ReadOptions.skipBadLines`), else it throws.
    /// - Returns: what the file says of the device (nil when nothing) and the format's version.
    mutating func run(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> FileFacts
}

/// What a recording file says beside its events.
struct FileFacts {
    var description: DeviceDescription?
    var version: String?
}

/// A text format's pass: lines from a `LineReader`, through a fresh line parser each time (the same parser the
/// whole-file reader uses, so both read the same lines the same way).
struct LinePass<Parser: RecordingLineParser>: EventPass {
    var lines: LineReader
    let makeParser: () -> Parser
    let skipBadLines: Bool
    let batchSize: Int
    /// For a part of a file read apart from the lines before it (`SplitSurvey`): the pass ends at the first line
    /// that says something of the device, which would build on what those lines said.
    var stopsAtDescription = false
    /// Asked at each batch and each line that is not a plain event: true ends the pass where it is (its reader
    /// no longer wants it).
    var isCancelled: (() -> Bool)?
    /// What the last run's lines said of the device and version, up to where it ended: at the end of the input,
    /// at a bad line it threw for, or where it stopped.
    private(set) var lastFacts = FileFacts()

    mutating func run(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> FileFacts {
        lines.rewind()
        var parser = makeParser()
        defer { lastFacts = FileFacts(description: parser.parsedDescription, version: parser.version) }
        parser.events.reserveCapacity(batchSize)
        let batchSize = batchSize
        while true {
            // The plain event lines the buffer holds whole, in runs of one loop each up to the batch's end; the first
            // other line (or one not yet whole) is read below.
            if Parser.hasFastEvents {
                while true {
                    lines.takeWholeLines { bytes, from, to in
                        parser.parseEventRun(bytes, from: from, to: to, limit: batchSize - parser.events.count)
                    }
                    guard parser.events.count >= batchSize else { break }
                    batch(parser.events[...])
                    parser.events.removeAll(keepingCapacity: true)
                    if let isCancelled, isCancelled() { return FileFacts() }
                }
            }
            guard let range = try lines.nextRange() else { break }
            let holdsNoNul = lines.holdsNoNul(range)
            let fast = lines.buffer.bytes.withUnsafeBufferPointer { bytes in
                parser.parseFastEvent(UnsafeBufferPointer(rebasing: bytes[range]), holdsNoNul: holdsNoNul)
            }
            if !fast {
                do throws(RecordingError) {
                    try parser.parseLine(lines.buffer.bytes[range], number: lines.number)
                } catch {
                    guard skipBadLines else { throw error }
                    skip(error)
                }
                if stopsAtDescription && parser.parsedDescription != nil { return FileFacts() }
                if let isCancelled, isCancelled() { return FileFacts() }
            }
            if parser.events.count >= batchSize {
                batch(parser.events[...])
                parser.events.removeAll(keepingCapacity: true)
            }
        }
        if !parser.events.isEmpty { batch(parser.events[...]) }
        return FileFacts(description: parser.parsedDescription, version: parser.version)
    }
}

/// A raw dump's pass: 24-byte records through an `InputBuffer`, with `RawEventReader.parse`'s errors in its
/// order: a partial last record is named before a record whose time is out of range, wherever that is.
struct RawPass: EventPass {
    var buffer: InputBuffer
    let file: String
    let batchSize: Int

    mutating func run(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> FileFacts {
        buffer.rewind()
        let size = RawEventReader.recordSize
        var events: [InputEvent] = []
        events.reserveCapacity(buffer.bytes.count / size + 1)
        var records = 0
        var badRecord: Int?
        while true {
            let whole = buffer.available / size * size
            if whole > 0 && badRecord == nil {
                let start = buffer.start
                badRecord = buffer.bytes.withUnsafeBytes { raw in
                    RawEventReader.decode(UnsafeRawBufferPointer(rebasing: raw[start..<(start + whole)]), into: &events)
                }.map { records + $0 }
                for cut in stride(from: 0, to: events.count, by: batchSize) {
                    batch(events[cut..<min(cut + batchSize, events.count)])
                }
                events.removeAll(keepingCapacity: true)
            }
            records += whole / size
            buffer.start += whole
            guard try buffer.refill() else { break }
        }
        let remainder = buffer.available
        let total = records * size + remainder
        if remainder > 0 {
            throw RawEventReader.truncation(byteCount: total, file: file)
        }
        if let badRecord { throw RawEventReader.badTime(record: badRecord, file: file) }
        return FileFacts()
    }
}

/// Every format's pass, as one concrete type. Reached through `any EventPass`, the generic `LinePass` would run
/// unspecialized: every line's parser call through a witness table, its event array copied to be counted. Each
/// case here names its parser, so the compiler specializes the pass for it.
enum FormatPass: EventPass {
    case evemu(LinePass<EvemuLineParser>)
    case getevent(LinePass<GeteventLineParser>)
    case evtest(LinePass<EvtestLineParser>)
    case raw(RawPass)
    case libinputRecord(LibinputPass)

    mutating func run(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> FileFacts {
        switch self {
        case .evemu(var pass):
            defer { self = .evemu(pass) }
            return try pass.run(batch: batch, skip: skip)
        case .getevent(var pass):
            defer { self = .getevent(pass) }
            return try pass.run(batch: batch, skip: skip)
        case .evtest(var pass):
            defer { self = .evtest(pass) }
            return try pass.run(batch: batch, skip: skip)
        case .raw(var pass):
            defer { self = .raw(pass) }
            return try pass.run(batch: batch, skip: skip)
        case .libinputRecord(var pass):
            defer { self = .libinputRecord(pass) }
            return try pass.run(batch: batch, skip: skip)
        }
    }
}
