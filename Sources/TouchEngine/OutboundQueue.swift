import TouchCore
import TouchJSON
import TouchWire

/// Lines waiting for a slow client, bounded in bytes, held in one contiguous buffer so that whatever is queued
/// leaves in one system call.
///
/// Policy (docs/protocol.md, "Slow clients"): lines are queued while the socket does not take them. Past the
/// limit the queue coalesces: of several queued `move` lines for one finger only the newest is kept, and
/// likewise `changed` lines of one gesture; position is never lost, only intermediate steps. If the events queued
/// are still over the limit, the client is disconnected with reason `overflow`. Replies do not count towards the
/// limit: they answer the client's own requests, and the engine stops reading requests while the queue is over
/// its high-water mark (`isOverHighWater`), so replies are bounded by backpressure instead. Other clients are never
/// affected: nothing here blocks.
///
/// Not copyable: one client owns it, and its line entries are in memory of its own, written in place (an array's
/// entries were tested for uniqueness at every line).
public struct OutboundQueue: ~Copyable {
    /// What a line is, for coalescing (`LineCoalescing`: the encoder tells it for each event line).
    public typealias Kind = LineCoalescing
    public typealias GestureChangeKey = LineCoalescing.GestureChangeKey

    public enum Outcome: Equatable, Sendable {
        case queued
        /// Coalescing made room.
        case coalesced(dropped: Int)
        /// Over the limit even after coalescing: disconnect.
        case overflow
    }

    /// One line: its kind and where its bytes are in `buffer`.
    struct Entry {
        var kind: Kind
        var offset: Int
        var length: Int
        var end: Int { offset + length }
    }

    public let limitBytes: Int
    /// A writer, so that the engine can encode a line straight into the queue (`tail`); not an array:
    /// `Array.append(contentsOf:)` of a line's bytes cost about as much again as their copy.
    private var buffer = JSONWriter(capacity: 0)
    /// The first byte not yet written.
    private var written = 0
    /// The lines queued are `entries[..<entryCount]`, in room for `entryCapacity`; emptying the queue (every flush
    /// that writes all) is one store.
    private var entries: UnsafeMutablePointer<Entry>
    private var entryCapacity: Int
    private var entryCount = 0
    /// The first entry not wholly written.
    private var head = 0
    /// Part of the head entry is on the wire: coalescing must keep the rest of it.
    private var headIsPartlyWritten = false
    /// Bytes of queued lines other than replies: what the limit bounds.
    public private(set) var eventByteCount = 0
    public private(set) var droppedByCoalescing = 0

    public init(limitBytes: Int) {
        self.limitBytes = limitBytes
        entryCapacity = 16
        entries = .allocate(capacity: entryCapacity)
    }

    deinit { entries.deallocate() }

    public var isEmpty: Bool { written == buffer.count }
    public var byteCount: Int { buffer.count - written }

    /// Past half the limit the client's requests wait (backpressure) until the queue is down to a quarter.
    public var isOverHighWater: Bool { byteCount > limitBytes / 2 }
    public var isUnderLowWater: Bool { byteCount <= limitBytes / 4 }

    public mutating func enqueue(_ bytes: [UInt8], kind: Kind) -> Outcome {
        bytes.withUnsafeBytes { enqueue($0, kind: kind) }
    }

    /// Copies the line in: one event's bytes, encoded once, are copied into each subscriber's queue.
    public mutating func enqueue(_ bytes: UnsafeRawBufferPointer, kind: Kind) -> Outcome {
        let offset = buffer.count
        buffer.append(raw: bytes)
        return queued(kind: kind, offset: offset)
    }

    /// Where the next line starts: the end of the queued bytes.
    public var end: Int { buffer.count }

    /// The queued bytes' writer, lent so that the engine encodes a line at their end (no line written elsewhere
    /// and copied in); `queueWritten(from:kind:)` then queues what it wrote. Only whole lines may be written here.
    public var tail: JSONWriter {
        _read { yield buffer }
        _modify { yield &buffer }
    }

    /// Whether nothing was queued before `start` (`end` before a line was written at it).
    public func isEmpty(before start: Int) -> Bool { written == start }

    /// Queues what was written at the end of `tail` since `start` as one line of `kind`.
    public mutating func queueWritten(from start: Int, kind: Kind) -> Outcome { queued(kind: kind, offset: start) }

    /// The last line queued (a line encoded here and copied into other queues): still whole after coalescing,
    /// which never drops the newest line, and after an overflow, which drops nothing.
    public func withLastLine<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let offset = entryCount > 0 ? entries[entryCount - 1].offset : buffer.count
        return buffer.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
    }

    /// Notes the bytes from `offset` to the end as one line, then holds the queue to its limit.
    private mutating func queued(kind: Kind, offset: Int) -> Outcome {
        let length = buffer.count - offset
        if entryCount == entryCapacity { growEntries() }
        (entries + entryCount).initialize(to: Entry(kind: kind, offset: offset, length: length))
        entryCount += 1
        if !kind.isReply { eventByteCount += length }
        guard eventByteCount > limitBytes else { return .queued }
        let dropped = coalesce()
        droppedByCoalescing += dropped
        return eventByteCount > limitBytes ? .overflow : .coalesced(dropped: dropped)
    }

    /// Twice the room for entries, the queued ones moved over (entries are plain values: nothing to release).
    private mutating func growEntries() {
        let larger = UnsafeMutablePointer<Entry>.allocate(capacity: entryCapacity * 2)
        larger.moveInitialize(from: entries, count: entryCount)
        entries.deallocate()
        entries = larger
        entryCapacity *= 2
    }

    /// Hands every unwritten byte to `write` at once; it returns how many it took.
    public mutating func flush(_ write: (UnsafeRawBufferPointer) -> Int) {
        guard !isEmpty else { return }
        let taken = buffer.withUnsafeBytes { raw in write(UnsafeRawBufferPointer(rebasing: raw[written...])) }
        consume(max(0, min(taken, byteCount)))
    }

    private mutating func consume(_ count: Int) {
        written += count
        // All of it written (the usual flush): no line is left to count or keep, whatever their kinds.
        if isEmpty {
            empty()
            return
        }
        while head < entryCount && entries[head].end <= written {
            if !entries[head].kind.isReply { eventByteCount -= entries[head].length }
            head += 1
            headIsPartlyWritten = false
        }
        if head < entryCount && written > entries[head].offset {
            // A partly written line: what is written of it leaves the count now, and it can no longer be dropped.
            let writtenPart = written - entries[head].offset
            if !entries[head].kind.isReply { eventByteCount -= writtenPart }
            entries[head].offset = written
            entries[head].length -= writtenPart
            headIsPartlyWritten = true
        }
        if written >= 64 * 1024 && written * 2 >= buffer.count { compact() }
    }

    /// Forgets every line, all written, keeping the room.
    private mutating func empty() {
        buffer.reset()
        entryCount = 0
        written = 0
        head = 0
        headIsPartlyWritten = false
        eventByteCount = 0
    }

    /// Moves the unwritten bytes to the front, so a client that is always a little behind does not grow the buffer.
    private mutating func compact() {
        buffer.removeFirst(written)
        entries.moveInitialize(from: entries + head, count: entryCount - head)
        entryCount -= head
        for index in 0..<entryCount { entries[index].offset -= written }
        written = 0
        head = 0
    }

    /// Removes superseded moves and gesture changes (never the line being written).
    private mutating func coalesce() -> Int {
        var newestMove: [FingerKey: Int] = [:]
        var newestChange: [GestureChangeKey: Int] = [:]
        let firstRemovable = headIsPartlyWritten ? head + 1 : head
        for index in firstRemovable..<entryCount {
            switch entries[index].kind {
            case .move(let finger): newestMove[finger] = index
            case .gestureChange(let key): newestChange[key] = index
            case .essential, .reply: break
            }
        }
        var keptBytes = JSONWriter(capacity: buffer.count - written)
        var kept: [Entry] = []
        var dropped = 0
        for index in head..<entryCount {
            let entry = entries[index]
            let superseded: Bool
            switch entry.kind {
            case .move(let finger): superseded = index >= firstRemovable && newestMove[finger] != index
            case .gestureChange(let key): superseded = index >= firstRemovable && newestChange[key] != index
            case .essential, .reply: superseded = false
            }
            if superseded {
                eventByteCount -= entry.length
                dropped += 1
                continue
            }
            kept.append(Entry(kind: entry.kind, offset: keptBytes.count, length: entry.length))
            buffer.withUnsafeBytes { raw in
                keptBytes.append(raw: UnsafeRawBufferPointer(rebasing: raw[entry.offset..<entry.end]))
            }
        }
        buffer = keptBytes
        // Fewer than were queued: they fit the room.
        for (index, entry) in kept.enumerated() { entries[index] = entry }
        entryCount = kept.count
        written = 0
        head = 0
        return dropped
    }
}
