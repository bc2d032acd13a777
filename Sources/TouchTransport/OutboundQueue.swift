/// Lines waiting for a slow client, bounded in bytes.
///
/// Policy (docs/protocol.md, "Slow clients"): lines are queued while the socket does not take them. Past the
/// high-water mark the queue coalesces: of several queued `move` lines for one finger only the newest is kept, and
/// likewise `changed` lines of one gesture; position is never lost, only intermediate steps. If the queue is still
/// over its limit, the client is disconnected with reason `overflow`. Other clients are never affected: nothing
/// here blocks.
public struct OutboundQueue {
    /// What a line is, for coalescing.
    public enum Kind: Equatable, Sendable {
        /// Never dropped (replies, downs, ups, gesture ends, device and scene notices).
        case essential
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
    public private(set) var droppedByCoalescing = 0

    public init(limitBytes: Int) { self.limitBytes = limitBytes }

    public var isEmpty: Bool { head == entries.count }

    public mutating func enqueue(_ bytes: [UInt8], kind: Kind) -> Outcome {
        entries.append(Entry(kind: kind, bytes: bytes))
        byteCount += bytes.count
        guard byteCount > limitBytes else { return .queued }
        let dropped = coalesce()
        droppedByCoalescing += dropped
        return byteCount > limitBytes ? .overflow : .coalesced(dropped: dropped)
    }

    /// Hands the unwritten bytes to `write`, which returns how many it took; stops when it takes fewer.
    public mutating func flush(_ write: (UnsafeRawBufferPointer) -> Int) {
        while head < entries.count {
            let entry = entries[head]
            let taken = entry.bytes.withUnsafeBytes { raw in
                write(UnsafeRawBufferPointer(rebasing: raw[headOffset...]))
            }
            byteCount -= taken
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
            case .essential: break
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
            case .essential: superseded = false
            }
            if superseded {
                byteCount -= entry.bytes.count
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
