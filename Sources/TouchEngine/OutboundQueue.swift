/// Lines waiting for a slow client, bounded in bytes.
///
/// Policy (docs/protocol.md, "Slow clients"): lines are queued while the socket does not take them. Past the
/// limit the queue coalesces: of several queued `move` lines for one finger only the newest is kept, and
/// likewise `changed` lines of one gesture; position is never lost, only intermediate steps. If the events queued
/// are still over the limit, the client is disconnected with reason `overflow`. Replies do not count towards the
/// limit: they answer the client's own requests, and the daemon stops reading requests while the queue is over
/// its high-water mark (`isOverHighWater`), so replies are bounded by backpressure instead. Other clients are never
/// affected: nothing here blocks.
public struct OutboundQueue {
    /// What a line is, for coalescing.
    public enum Kind: Equatable, Sendable {
        /// Never dropped (downs, ups, gesture ends, device and scene notices).
        case essential
        /// The answer to one of the client's requests: never dropped, and not counted towards the limit.
        case reply
        /// A move of one finger: only the newest matters.
        case move(finger: UInt64)
        /// A `changed` report of one gesture in one region.
        case gestureChange(key: String)
    }

    public enum Outcome: Equatable, Sendable {
        case queued
        /// Coalescing made room.
        case coalesced(dropped: Int)
        /// Over the limit even after coalescing: disconnect.
        case overflow
    }

    struct Entry {
        var kind: Kind
        var bytes: [UInt8]
    }

    public let limitBytes: Int
    private var entries: [Entry] = []
    private var head = 0
    /// Bytes of the first entry already written.
    private var headOffset = 0
    public private(set) var byteCount = 0
    /// Bytes of queued lines other than replies: what the limit bounds.
    public private(set) var eventByteCount = 0
    public private(set) var droppedByCoalescing = 0

    public init(limitBytes: Int) { self.limitBytes = limitBytes }

    public var isEmpty: Bool { head == entries.count }

    /// Past half the limit the client's requests wait (backpressure) until the queue is down to a quarter.
    public var isOverHighWater: Bool { byteCount > limitBytes / 2 }
    public var isUnderLowWater: Bool { byteCount <= limitBytes / 4 }

    public mutating func enqueue(_ bytes: [UInt8], kind: Kind) -> Outcome {
        entries.append(Entry(kind: kind, bytes: bytes))
        byteCount += bytes.count
        if kind != .reply { eventByteCount += bytes.count }
        guard eventByteCount > limitBytes else { return .queued }
        let dropped = coalesce()
        droppedByCoalescing += dropped
        return eventByteCount > limitBytes ? .overflow : .coalesced(dropped: dropped)
    }

    /// Hands the unwritten bytes to `write`, which returns how many it took; stops when it takes fewer.
    public mutating func flush(_ write: (UnsafeRawBufferPointer) -> Int) {
        while head < entries.count {
            let entry = entries[head]
            let taken = entry.bytes.withUnsafeBytes { raw in
                write(UnsafeRawBufferPointer(rebasing: raw[headOffset...]))
            }
            byteCount -= taken
            if entry.kind != .reply { eventByteCount -= taken }
            headOffset += taken
            if headOffset < entry.bytes.count { return }
            head += 1
            headOffset = 0
        }
        entries.removeAll(keepingCapacity: true)
        head = 0
    }

    /// Removes superseded moves and gesture changes (never the line being written).
    private mutating func coalesce() -> Int {
        var newestMove: [UInt64: Int] = [:]
        var newestChange: [String: Int] = [:]
        let firstRemovable = headOffset > 0 ? head + 1 : head
        for index in firstRemovable..<entries.count {
            switch entries[index].kind {
            case .move(let finger): newestMove[finger] = index
            case .gestureChange(let key): newestChange[key] = index
            case .essential, .reply: break
            }
        }
        var kept: [Entry] = Array(entries[head..<firstRemovable])
        var dropped = 0
        for index in firstRemovable..<entries.count {
            let entry = entries[index]
            let superseded: Bool
            switch entry.kind {
            case .move(let finger): superseded = newestMove[finger] != index
            case .gestureChange(let key): superseded = newestChange[key] != index
            case .essential, .reply: superseded = false
            }
            if superseded {
                byteCount -= entry.bytes.count
                eventByteCount -= entry.bytes.count
                dropped += 1
            } else {
                kept.append(entry)
            }
        }
        entries = kept
        head = 0
        return dropped
    }
}
