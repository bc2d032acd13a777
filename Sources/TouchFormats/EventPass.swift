import TouchCore

/// One pass over a recording's events from its first byte, for `RecordingPass`: events go out in batches, so
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
public struct FileFacts: Sendable {
    public var description: DeviceDescription?
    public var version: String?

    public init(description: DeviceDescription? = nil, version: String? = nil) {
        self.description = description
        self.version = version
    }
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
    /// The parser of the pass in progress (`begin`, `step`); nil once it ended.
    private var parser: Parser?
    /// The pass in progress ended where it was told to stop (`stopsAtDescription`, `isCancelled`).
    private var stoppedEarly = false

    init(lines: LineReader, makeParser: @escaping () -> Parser, skipBadLines: Bool, batchSize: Int) {
        self.lines = lines
        self.makeParser = makeParser
        self.skipBadLines = skipBadLines
        self.batchSize = batchSize
    }

    mutating func run(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> FileFacts {
        begin()
        while try step(batch: batch, skip: skip) {}
        return stoppedEarly ? FileFacts() : lastFacts
    }

    /// Starts a pass from the first line, for `step`.
    mutating func begin() {
        lines.rewind()
        var parser = makeParser()
        parser.events.reserveCapacity(batchSize)
        self.parser = parser
        stoppedEarly = false
    }

    /// Reads on until a batch is full, hands it to `batch`, and returns true; at the end of the pass (the input's,
    /// or where it stopped), hands what is left and returns false, `lastFacts` saying what the lines said.
    mutating func step(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> Bool {
        // Out of `self` while it works, so that the closures below reach it alone (and its events stay uniquely
        // referenced); put back when the step leaves the pass going on.
        guard var parser = self.parser else { return false }
        self.parser = nil
        var goesOn = false
        defer {
            lastFacts = FileFacts(description: parser.parsedDescription, version: parser.version)
            if goesOn { self.parser = parser }
        }
        let batchSize = batchSize
        while true {
            // The plain event lines the buffer holds whole, in runs of one loop each up to the batch's end; the first
            // other line (or one not yet whole) is read below.
            if Parser.hasFastEvents {
                lines.takeWholeLines { bytes, from, to in
                    parser.parseEventRun(bytes, from: from, to: to, limit: batchSize - parser.events.count)
                }
                if parser.events.count >= batchSize {
                    batch(parser.events[...])
                    parser.events.removeAll(keepingCapacity: true)
                    if let isCancelled, isCancelled() { return stopped() }
                    goesOn = true
                    return true
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
                if stopsAtDescription && parser.parsedDescription != nil { return stopped() }
                if let isCancelled, isCancelled() { return stopped() }
            }
            if parser.events.count >= batchSize {
                batch(parser.events[...])
                parser.events.removeAll(keepingCapacity: true)
                goesOn = true
                return true
            }
        }
        if !parser.events.isEmpty { batch(parser.events[...]) }
        return false
    }

    /// Ends the pass where it is, what it holds not handed on: `run` then says nothing of the file, but `lastFacts`
    /// keeps what the lines said.
    private mutating func stopped() -> Bool {
        stoppedEarly = true
        return false
    }
}

/// A raw dump's pass: 24-byte records through an `InputBuffer`, with `RawEventReader.parse`'s errors in its
/// order: a partial last record is named before a record whose time is out of range, wherever that is.
struct RawPass: EventPass {
    var buffer: InputBuffer
    let file: String
    let batchSize: Int
    private var events: [InputEvent] = []
    private var records = 0
    private var badRecord: Int?
    private var ended = true

    init(buffer: InputBuffer, file: String, batchSize: Int) {
        self.buffer = buffer
        self.file = file
        self.batchSize = batchSize
    }

    mutating func run(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> FileFacts {
        begin()
        while try step(batch: batch, skip: skip) {}
        return FileFacts()
    }

    /// Starts a pass from the first record, for `step`.
    mutating func begin() {
        buffer.rewind()
        events.removeAll(keepingCapacity: true)
        events.reserveCapacity(buffer.bytes.count / RawEventReader.recordSize + 1)
        records = 0
        badRecord = nil
        ended = false
    }

    /// Hands on the records of one buffer's worth of the input, in batches, and returns true; at the end of the
    /// input, false (or the pass's error).
    mutating func step(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> Bool {
        guard !ended else { return false }
        let size = RawEventReader.recordSize
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
        if try buffer.refill() { return true }
        ended = true
        let remainder = buffer.available
        let total = records * size + remainder
        if remainder > 0 {
            throw RawEventReader.truncation(byteCount: total, file: file)
        }
        if let badRecord { throw RawEventReader.badTime(record: badRecord, file: file) }
        return false
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

    /// Starts a pass from the input's start, to be read a step at a time (`step`).
    mutating func begin() {
        switch self {
        case .evemu(var pass):
            pass.begin()
            self = .evemu(pass)
        case .getevent(var pass):
            pass.begin()
            self = .getevent(pass)
        case .evtest(var pass):
            pass.begin()
            self = .evtest(pass)
        case .raw(var pass):
            pass.begin()
            self = .raw(pass)
        case .libinputRecord: break
        }
    }

    /// Reads on from where the pass begun by `begin` is: hands on one batch or a buffer's worth of events, and
    /// returns whether more may follow. libinput record YAML's parser reads a document whole, so its pass is one
    /// step, every event handed on in it.
    mutating func step(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> Bool {
        switch self {
        case .evemu(var pass):
            defer { self = .evemu(pass) }
            return try pass.step(batch: batch, skip: skip)
        case .getevent(var pass):
            defer { self = .getevent(pass) }
            return try pass.step(batch: batch, skip: skip)
        case .evtest(var pass):
            defer { self = .evtest(pass) }
            return try pass.step(batch: batch, skip: skip)
        case .raw(var pass):
            defer { self = .raw(pass) }
            return try pass.step(batch: batch, skip: skip)
        case .libinputRecord(var pass):
            defer { self = .libinputRecord(pass) }
            _ = try pass.run(batch: batch, skip: skip)
            return false
        }
    }
}
