/// The JSON writer's output bytes (a client's queue of lines among them: `OutboundQueue`). Array's
/// `append(contentsOf:)` goes through a generic path with its own uniqueness and capacity checks on every call, and
/// the writer makes a dozen small appends per event line; here an append is one capacity-and-uniqueness test and a
/// copy. Copies of a buffer stay independent (copy on write).
@usableFromInline
struct ByteBuffer {
    @usableFromInline
    final class Storage {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        @usableFromInline let capacity: Int
        /// Made at the first template line: most buffers (an escaped string, an interned id) never print a number.
        /// Unchecked: a checked access cost a runtime exclusivity check every line. Safe because only a buffer that
        /// holds this storage uniquely (`reserveUnchecked`, after `writableSpace`) reads or sets it, one line at a time.
        @usableFromInline @exclusivity(unchecked) var memo: NumberMemo?

        init(capacity: Int) {
            self.capacity = max(capacity, 16)
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
        }

        deinit {
            base.deallocate()
            memo?.deallocate()
        }
    }

    @usableFromInline var storage: Storage
    @usableFromInline var count = 0

    init(capacity: Int) { storage = Storage(capacity: capacity) }

    var array: [UInt8] { withUnsafeBytes { Array($0) } }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.base, count: count))
    }

    /// Empties the buffer, keeping its room.
    mutating func removeAll() { count = 0 }

    /// Drops the first `dropped` bytes, moving the rest to the front.
    mutating func removeFirst(_ dropped: Int) {
        precondition(dropped >= 0 && dropped <= count, "removing more bytes than the buffer holds")
        _ = writableSpace(for: 0)  // unshared first
        // `update(from:count:)` copies overlapping regions correctly (front to back here: the source is above).
        storage.base.update(from: storage.base + dropped, count: count - dropped)
        count -= dropped
    }

    mutating func append(_ byte: UInt8) {
        writableSpace(for: 1)[0] = byte
        count += 1
    }

    mutating func append(_ first: UInt8, _ second: UInt8) {
        let space = writableSpace(for: 2)
        space[0] = first
        space[1] = second
        count += 2
    }

    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        writableSpace(for: bytes.count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: UnsafeRawBufferPointer(bytes))
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(contentsOf: $0) }
    }

    /// `,"name":` (or `"name":`) in one reservation: every line has a dozen keys.
    mutating func appendKey(_ name: UnsafeBufferPointer<UInt8>, afterComma comma: Bool) {
        let length = name.count + (comma ? 4 : 3)
        var target = writableSpace(for: length)
        if comma {
            target.pointee = UInt8(ascii: ",")
            target += 1
        }
        target[0] = UInt8(ascii: "\"")
        if let source = name.baseAddress { (target + 1).update(from: source, count: name.count) }
        target[1 + name.count] = UInt8(ascii: "\"")
        target[2 + name.count] = UInt8(ascii: ":")
        count += length
    }

    /// Makes room for `maximum` more bytes once and returns where they start, with the storage's memo of printed
    /// numbers: the storage is uniquely referenced once room is made, so no other buffer reads or writes the memo
    /// while the caller writes. `commitUnchecked` then counts what it wrote; nothing else may write in between.
    @inlinable @inline(__always)
    mutating func reserveUnchecked(maximum: Int) -> (start: UnsafeMutablePointer<UInt8>, memo: NumberMemo) {
        let start = writableSpace(for: maximum)
        return (start, storage.memo ?? makeMemo())
    }

    /// Counts the bytes written at the end since `reserveUnchecked`, up to `end`.
    @inlinable @inline(__always)
    mutating func commitUnchecked(upTo end: UnsafeMutablePointer<UInt8>) { count = end - storage.base }

    @usableFromInline @inline(never)
    func makeMemo() -> NumberMemo {
        let memo = NumberMemo()
        storage.memo = memo
        return memo
    }

    /// Where the next `extra` bytes go: grown (doubling) or unshared first when needed.
    @inlinable @inline(__always)
    mutating func writableSpace(for extra: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(count + extra > storage.capacity || !isKnownUniquelyReferenced(&storage)) {
            reallocate(toHold: count + extra)
        }
        return storage.base + count
    }

    @usableFromInline @inline(never)
    mutating func reallocate(toHold needed: Int) {
        let grown = Storage(capacity: max(storage.capacity, needed * 2))
        grown.base.update(from: storage.base, count: count)
        storage = grown
    }
}
