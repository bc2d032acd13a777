/// The bytes of a `RecordingSource` through one buffer that is refilled as it is used: reading never holds more of
/// a file than the buffer, which grows only to hold a line (or record) longer than itself.
struct InputBuffer {
    let input: any RecordingSource
    private(set) var bytes: [UInt8]
    /// The unread bytes are `bytes[start..<end]`.
    var start = 0
    private(set) var end = 0
    private(set) var atEnd = false
    /// Each read asks for at most this much, even once the buffer has grown, so a tiny size in tests makes every
    /// line cross reads.
    private let readSize: Int

    init(_ input: any RecordingSource, size: Int = RecordingPass.defaultBufferSize) {
        self.input = input
        readSize = max(size, 1)
        bytes = [UInt8](repeating: 0, count: readSize)
    }

    var available: Int { end - start }

    /// Reads more after the unread bytes, moving them to the front (or growing the buffer when they fill it).
    /// - Returns: false at the end of the input.
    mutating func refill() throws(RecordingError) -> Bool {
        guard !atEnd else { return false }
        if start > 0 {
            let count = end - start
            bytes.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                base.update(from: base + start, count: count)
            }
            start = 0
            end = count
        }
        if end == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, readSize))) }
        let wanted = min(readSize, bytes.count - end)
        let offset = end
        // The closure's typed error comes out through a Result: withUnsafeMutableBytes only rethrows untyped ones.
        let got = try bytes.withUnsafeMutableBytes { raw in
            Result { () throws(RecordingError) in
                try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[offset..<(offset + wanted)]))
            }
        }.get()
        if got == 0 { atEnd = true }
        end += got
        return got > 0
    }

    /// Reads the input again from its first byte.
    mutating func rewind() {
        input.rewind()
        start = 0
        end = 0
        atEnd = false
    }
}

/// Lines of text from an `InputBuffer`, split as `forEachLine` splits a whole file: at `\n`, a trailing `\r`
/// dropped, a last line without `\n` kept, numbered from 1. A leading UTF-8 byte order mark is skipped.
struct LineReader {
    private(set) var buffer: InputBuffer
    /// The number of the line `next()` returned last.
    private(set) var number = 0
    /// Keep a `\r` before the `\n` (for a reader that splits lines otherwise).
    var keepsCarriageReturn = false
    /// Whether the line `next()` returned last ended with `\n` (the last line of a file may not).
    private(set) var endedWithNewline = false
    /// Where the search for the next `\n` goes on: the bytes before it, after `buffer.start`, have none.
    private var scanned = 0
    private var checkedByteOrderMark: Bool
    /// The input starts where a text starts (not in the middle of one, as the second part of a split pass does):
    /// a byte order mark is looked for there.
    private let startsText: Bool
    /// The first NUL byte in `buffer.bytes` from where it was last looked for to `buffer.end` (`buffer.end` when
    /// none), or nil when not looked for since the bytes last moved: one search covers many lines.
    private var firstNul: Int?

    init(_ input: any RecordingSource, bufferSize: Int = RecordingPass.defaultBufferSize, startsText: Bool = true) {
        buffer = InputBuffer(input, size: bufferSize)
        self.startsText = startsText
        checkedByteOrderMark = !startsText
    }

    /// The next line without its `\n` (nor a `\r` before it), or nil at the end. The slice is valid until the next
    /// call.
    mutating func next() throws(RecordingError) -> ArraySlice<UInt8>? {
        guard let range = try nextRange() else { return nil }
        return buffer.bytes[range]
    }

    /// Where the next line is in `buffer.bytes`, as `next()` would return it: a reader that looks at the bytes
    /// through a pointer makes no slice (and no reference count traffic) for a line it reads whole.
    mutating func nextRange() throws(RecordingError) -> Range<Int>? {
        if !checkedByteOrderMark { try skipByteOrderMark() }
        while true {
            let start = buffer.start
            let end = buffer.end
            let from = start + scanned
            let newline = buffer.bytes.withUnsafeBufferPointer { bytes in
                ByteSearch.first(ASCII.newline, in: bytes, from: from, to: end)
            }
            if newline < end {
                scanned = 0
                buffer.start = newline + 1
                endedWithNewline = true
                return line(start, newline)
            }
            scanned = end - start
            firstNul = nil
            guard try buffer.refill() else {
                // The refill that found the end may have moved the unread bytes to the front first: the last line
                // is where the buffer says now, not at `start..<end`.
                let lastStart = buffer.start
                let lastEnd = buffer.end
                guard lastEnd > lastStart else { return nil }
                scanned = 0
                buffer.start = lastEnd
                endedWithNewline = false
                return line(lastStart, lastEnd)
            }
            // The unread bytes moved to the front; `scanned` counts from there.
        }
    }

    /// Hands the unread bytes the buffer holds, up to its first NUL, to `read`, which takes whole lines from their
    /// start in one loop (`RecordingLineParser.parseEventRun`): `read` gets the buffer's bytes, where the unread ones
    /// start and where they end or hold a NUL, and says where it stopped (a line's start) and how many lines it took,
    /// each ended by a `\n` before that end. They are numbered as `nextRange()` would have returned them.
    mutating func takeWholeLines(
        _ read: (_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> (next: Int, lines: Int)
    ) {
        // A reader that keeps `\r` splits lines otherwise than the runs do.
        guard checkedByteOrderMark && scanned == 0 && !keepsCarriageReturn else { return }
        let start = buffer.start
        let end = buffer.end
        guard start < end else { return }
        let nul: Int
        if let firstNul, firstNul >= start {
            nul = firstNul
        } else {
            nul = buffer.bytes.withUnsafeBufferPointer { ByteSearch.first(0, in: $0, from: start, to: end) }
            firstNul = nul
        }
        let (next, lines) = buffer.bytes.withUnsafeBufferPointer { read($0, start, nul) }
        guard lines > 0 else { return }
        buffer.start = next
        number += lines
        endedWithNewline = true
    }

    /// Whether `range`, the line `nextRange()` returned last, holds no NUL byte.
    @inline(__always)
    mutating func holdsNoNul(_ range: Range<Int>) -> Bool {
        if let firstNul, firstNul >= range.lowerBound && firstNul <= buffer.end {
            return firstNul >= range.upperBound
        }
        let end = buffer.end
        let found = buffer.bytes.withUnsafeBufferPointer { bytes in
            ByteSearch.first(0, in: bytes, from: range.lowerBound, to: end)
        }
        firstNul = found
        return found >= range.upperBound
    }

    /// Reads the input again from its start, numbering from 1 again.
    mutating func rewind() {
        buffer.rewind()
        firstNul = nil
        number = 0
        scanned = 0
        checkedByteOrderMark = !startsText
    }

    private mutating func line(_ start: Int, _ newline: Int) -> Range<Int> {
        number += 1
        var end = newline
        if !keepsCarriageReturn && end > start && buffer.bytes[end - 1] == ASCII.carriageReturn { end -= 1 }
        return start..<end
    }

    private mutating func skipByteOrderMark() throws(RecordingError) {
        checkedByteOrderMark = true
        while buffer.available < ByteOrderMark.bytes.count, try buffer.refill() {}
        if buffer.bytes[buffer.start..<buffer.end].starts(with: ByteOrderMark.bytes) { buffer.start += 3 }
    }
}
