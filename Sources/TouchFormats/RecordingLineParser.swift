import TouchCore

/// A text recording format read a line at a time, the one way both a whole file (`forEachLine`) and a stream
/// (`LineReader`) are read. A line that is not an event may change what the parser knows of the device.
protocol RecordingLineParser {
    /// The events read so far; a streaming reader takes them in batches and empties this.
    var events: [InputEvent] { get set }
    /// What the lines said of the device; nil when they said nothing.
    var parsedDescription: DeviceDescription? { get }
    /// The format's version where the file names one.
    var version: String? { get }
    /// Reads one line (without its line end); a malformed line throws, naming the line and field.
    mutating func parseLine(_ line: ArraySlice<UInt8>, number: Int) throws(RecordingError)
    /// Reads `line` if it is a plain event line (see the extension); false leaves it to `parseLine`. `holdsNoNul`:
    /// the reader knows the line has no NUL byte.
    mutating func parseFastEvent(_ line: UnsafeBufferPointer<UInt8>, holdsNoNul: Bool) -> Bool
    /// Reads the plain event lines of `bytes` from `from` on (some of those `parseFastEvent` takes, with the same
    /// events: evemu-record's layout), one after the other in one loop: only whole lines, their `\n` before `to`, and
    /// at most `limit` of them; it stops before the first other line. `bytes[from..<to]` must hold no NUL byte.
    /// Returns where it stopped (a line's start) and how many lines it read. A format without a fast path reads none.
    mutating func parseEventRun(
        _ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, limit: Int
    ) -> (next: Int, lines: Int)
    /// Whether `parseFastEvent` ever says true: a format without a fast path is read a line at a time.
    static var hasFastEvents: Bool { get }
}

extension RecordingLineParser {
    /// Reads `line` if it is an event line of the format's fast path (`EvemuEventLine`); false for anything
    /// else, which then goes to `parseLine`. A format without one says false.
    mutating func parseFastEvent(_ line: UnsafeBufferPointer<UInt8>, holdsNoNul: Bool) -> Bool { false }
    mutating func parseEventRun(
        _ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, limit: Int
    ) -> (next: Int, lines: Int) { (from, 0) }
    static var hasFastEvents: Bool { false }
}
