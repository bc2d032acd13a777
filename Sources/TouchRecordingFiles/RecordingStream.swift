import TouchCore
import TouchFormats
import TouchPosix

/// A recording read as a stream, for `touchd replay` and `touchd run --replay`: its memory does not grow with the
/// recording's length.
///
/// Opening it reads the whole input once (the first pass): every line is checked, so a malformed file fails
/// before anything is replayed, with the same error as `RecordingLoader.load`; skipped lines are counted; and
/// every event is noted (`EventStatistics`) but none kept, because settling the description may need all of
/// them (inferred axis ranges, axes an embedded description lacks). `forEachBatch` then reads the events again
/// from the start (or, for a reader with other work between batches, `rewind` and `nextBatch`). A regular file is
/// read twice, and must not change in between (`.changed`); a pipe or standard input from one cannot be, so
/// `RecordingInput` holds its bytes (still never the parsed events).
///
/// With a second processor, a large evemu file's first pass reads both its halves at once (`SplitSurvey`), and the
/// second pass may be parsed ahead on a thread of its own (`ReadAhead`): what the caller gets is what one thread
/// would give.
///
/// Formats, description, skipping and errors are those of `RecordingLoader.load`: the same line parsers, fed
/// from a fixed-size buffer (`LineReader`) instead of a whole file.
public final class RecordingStream {
    /// What the recording says beside its events, settled as `RecordingLoader.load` settles it.
    public private(set) var info: RecordingInfo
    /// The first event's time; nil when there are no events.
    public private(set) var firstEventTime: EventTime?
    public private(set) var eventCount = 0
    private var pass: RecordingPass
    private let input: RecordingInput

    /// 64 KiB: few system calls, and small beside what replay itself needs.
    public static let defaultBufferSize = RecordingPass.defaultBufferSize
    /// Events handed on at a time: enough to make the per-batch work vanish, few enough to stay in the cache.
    public static let defaultBatchSize = RecordingPass.defaultBatchSize
    /// An evemu file this large is surveyed in two halves at once, when there is more than one processor: below
    /// it, the first pass takes about a millisecond, and a thread costs more than it saves.
    public static let defaultSplitSize: Int? = Posix.usableProcessorCount > 1 ? 1 << 20 : nil
    /// Batches parsed ahead of their use (`forEachBatch(readingAhead:)`): 64 KiB each by default.
    static let readAheadBatches = 8

    /// Opens `path` (`-` is standard input) and reads it through once.
    public convenience init(
        path: String, format: RecordingFormat? = nil, descriptionPath: String? = nil,
        options: ReadOptions = ReadOptions(), splitSize: Int? = RecordingStream.defaultSplitSize
    ) throws(RecordingError) {
        try self.init(
            input: try RecordingInput(path: path), format: format, descriptionPath: descriptionPath, options: options,
            splitSize: splitSize)
    }

    /// Reads `input` through once. `bufferSize` is the read buffer's size and `batchSize` the most events
    /// `forEachBatch` hands over at once: tests make them tiny, so that every line crosses reads and batches cut
    /// frames. An evemu input of `splitSize` bytes or more is read in two halves at once (`SplitSurvey`); nil
    /// reads every input in one.
    public init(
        input: RecordingInput, format: RecordingFormat? = nil, descriptionPath: String? = nil,
        options: ReadOptions = ReadOptions(), bufferSize: Int = RecordingStream.defaultBufferSize,
        batchSize: Int = RecordingStream.defaultBatchSize, splitSize: Int? = RecordingStream.defaultSplitSize
    ) throws(RecordingError) {
        let file = input.name
        self.input = input
        var detected = format
        if detected == nil { detected = FormatDetection.detect(try Self.head(of: input)) }
        guard let format = detected else {
            throw RecordingParser.unknownFormat(file)
        }
        pass = RecordingPass(
            format: format, source: input, file: file, options: options, bufferSize: bufferSize,
            batchSize: batchSize)
        var split: Survey?
        if format == .evemu, let splitSize, let size = input.byteCount, size >= splitSize {
            split = try SplitSurvey.run(
                input, file: file, options: options, bufferSize: bufferSize, batchSize: max(batchSize, 1))
        }
        let survey: Survey
        if let split {
            survey = split
        } else {
            survey = try pass.survey()
        }
        info = RecordingInfo(
            format: format, description: survey.facts.description ?? DeviceDescription(),
            descriptionSource: survey.facts.description == nil ? .inferred : .embedded, version: survey.facts.version)
        info.skippedCount = survey.skippedCount
        info.firstSkipped = survey.firstSkipped
        firstEventTime = survey.firstEventTime
        eventCount = survey.eventCount
        try RecordingLoader.settleDescription(
            &info, file: file, descriptionPath: descriptionPath, statistics: survey.statistics)
    }

    /// Reads the events again from the start, handing them to `body` a batch at a time, in order. Lines the
    /// first pass skipped are skipped again. A file that is not as the first pass found it (its size, modification
    /// time or inode), before this pass or after it, is a `.changed` error: before, nothing is handed on; after (or
    /// at an error in between), what was handed on may not be what the first pass checked.
    ///
    /// `readingAhead`: the input is read and parsed on a thread of its own, a few batches ahead of `body`, which
    /// runs on the caller's thread as before, with the same batches in the same order. No more than
    /// `readAheadBatches` are held.
    public func forEachBatch(
        readingAhead: Bool = false, _ body: (ArraySlice<InputEvent>) -> Void
    ) throws(RecordingError) {
        try input.checkUnchanged()
        do throws(RecordingError) {
            if readingAhead, let outcome = ReadAhead.run(&pass, batches: Self.readAheadBatches, body) {
                try outcome.get()
            } else {
                try pass.run(batch: body, skip: { _ in })
            }
        } catch {
            try input.checkUnchanged()
            throw error
        }
        try input.checkUnchanged()
    }

    /// Starts a pass over the events from the start, for a reader that takes them a batch at a time between other
    /// work (`nextBatch`: the daemon's loop). A file that is not as the first pass found it is a `.changed` error.
    public func rewind() throws(RecordingError) {
        try input.checkUnchanged()
        pass.begin()
    }

    /// Reads on in the pass `rewind` began: hands the next events to `body` (a batch, a buffer's worth of a raw
    /// dump, or the whole of a libinput record, whose parser reads a document whole) and returns whether more may
    /// follow. An error is the file's, or `.changed` when the file no longer is as the first pass found it.
    public func nextBatch(_ body: (ArraySlice<InputEvent>) -> Void) throws(RecordingError) -> Bool {
        let more: Bool
        do throws(RecordingError) {
            more = try pass.step(batch: body, skip: { _ in })
        } catch {
            try input.checkUnchanged()
            throw error
        }
        if !more { try input.checkUnchanged() }
        return more
    }

    /// The first 4 KiB, which format detection looks at.
    private static func head(of input: RecordingInput) throws(RecordingError) -> [UInt8] {
        let head = try input.read(upTo: 4096)
        input.rewind()
        return head
    }
}
