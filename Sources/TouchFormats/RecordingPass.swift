import TouchCore

/// One format's pass over a recording's events from its source's first byte, a batch at a time: what a streaming
/// reader (TouchRecordingFiles' `RecordingStream`) drives. The parsing, and so every line's work, stays in this
/// module, specialized for each format's parser (`FormatPass`); a caller makes one call a batch.
public struct RecordingPass {
    /// 64 KiB: few reads, and small beside what replay itself needs.
    public static let defaultBufferSize = 64 * 1024
    /// Events handed on at a time: enough to make the per-batch work vanish, few enough to stay in the cache.
    public static let defaultBatchSize = 4096

    var pass: FormatPass

    /// A pass over `source` read as `format`. `bufferSize` is the read buffer's size and `batchSize` the most events
    /// handed on at once.
    public init(
        format: RecordingFormat, source: any RecordingSource, file: String, options: ReadOptions,
        bufferSize: Int = Self.defaultBufferSize, batchSize: Int = Self.defaultBatchSize
    ) {
        let batchSize = max(batchSize, 1)
        let lines = LineReader(source, bufferSize: bufferSize)
        let skip = options.skipBadLines
        switch format {
        case .evemu:
            pass = .evemu(
                LinePass(
                    lines: lines, makeParser: { EvemuLineParser(file: file) }, skipBadLines: skip,
                    batchSize: batchSize))
        case .getevent:
            pass = .getevent(
                LinePass(
                    lines: lines, makeParser: { GeteventLineParser(file: file) }, skipBadLines: skip,
                    batchSize: batchSize))
        case .evtest:
            pass = .evtest(
                LinePass(
                    lines: lines, makeParser: { EvtestLineParser(file: file) }, skipBadLines: skip,
                    batchSize: batchSize))
        case .raw:
            pass = .raw(RawPass(buffer: InputBuffer(source, size: bufferSize), file: file, batchSize: batchSize))
        case .libinputRecord:
            pass = .libinputRecord(LibinputPass(lines: lines, file: file, batchSize: batchSize))
        }
    }

    /// A pass over a part of an evemu file read apart from the lines before it (the second half of a split
    /// survey): `startsText` false, as its first byte is not the file's; it ends at the first line that says
    /// something of the device, which would build on what those lines said; and `isCancelled`, asked at each batch
    /// and each line that is not a plain event, ends it where it is (`isCancelled`).
    public static func evemuPart(
        source: any RecordingSource, file: String, options: ReadOptions, bufferSize: Int, batchSize: Int,
        startsText: Bool, stopsAtDescription: Bool
    ) -> RecordingPass {
        var part = LinePass(
            lines: LineReader(source, bufferSize: bufferSize, startsText: startsText),
            makeParser: { EvemuLineParser(file: file) }, skipBadLines: options.skipBadLines,
            batchSize: max(batchSize, 1))
        part.stopsAtDescription = stopsAtDescription
        return RecordingPass(.evemu(part))
    }

    private init(_ pass: FormatPass) {
        self.pass = pass
    }

    /// Asked at each batch and each line that is not a plain event of an evemu pass: true ends the pass where it
    /// is (its reader no longer wants it). Other formats' passes do not ask.
    public var isCancelled: (() -> Bool)? {
        get {
            guard case .evemu(let pass) = pass else { return nil }
            return pass.isCancelled
        }
        set {
            guard case .evemu(var evemu) = pass else { return }
            evemu.isCancelled = newValue
            pass = .evemu(evemu)
        }
    }

    /// Lines read in the last pass, up to where it ended; 0 for a raw dump, which has none.
    public var linesRead: Int {
        switch pass {
        case .evemu(let pass): pass.lines.number
        case .getevent(let pass): pass.lines.number
        case .evtest(let pass): pass.lines.number
        case .raw, .libinputRecord: 0
        }
    }

    /// What the last pass's lines said of the device and version, up to where it ended (a line pass's; nothing
    /// for the others).
    public var lastFacts: FileFacts {
        switch pass {
        case .evemu(let pass): pass.lastFacts
        case .getevent(let pass): pass.lastFacts
        case .evtest(let pass): pass.lastFacts
        case .raw, .libinputRecord: FileFacts()
        }
    }

    /// Reads the source from its start: events to `batch` in order, a batch at a time; a malformed line to `skip`
    /// when lines are skipped (`ReadOptions.skipBadLines`), else it throws.
    /// - Returns: what the file says of the device (nil when nothing) and the format's version.
    @discardableResult
    public mutating func run(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> FileFacts {
        try pass.run(batch: batch, skip: skip)
    }

    /// Starts a pass from the source's start, to be read a step at a time (`step`).
    public mutating func begin() { pass.begin() }

    /// Reads on from where the pass begun by `begin` is: hands on one batch or a buffer's worth of events, and
    /// returns whether more may follow.
    public mutating func step(
        batch: (ArraySlice<InputEvent>) -> Void, skip: (RecordingError) -> Void
    ) throws(RecordingError) -> Bool {
        try pass.step(batch: batch, skip: skip)
    }

    /// Reads the pass through from its start, keeping no event (`Survey`).
    public mutating func survey() throws(RecordingError) -> Survey {
        try Survey.of(&pass)
    }
}
