/// Two-decimal numbers a template line printed, kept by the writer for later lines, in slots its caller names: a
/// touch line prints eight, and half of them are usually Doubles printed just before (`local_x` is `x` when the
/// region is at the origin, `prev_x` is the same finger's `x` on its previous line). Reusing a slot copies the
/// bytes instead of printing the number again.
///
/// A slot is reused only for the bit-identical Double, so a copy is the very bytes the printer made for that value
/// (the printer is a function of the bits alone): which slot a caller picks changes the cost, never the output.
/// A writer's buffer storage owns one (`ByteBuffer`), made at its first template line; only a buffer known to be
/// uniquely referenced hands it to a cursor, so a memo is never written through two buffers at once.
@usableFromInline
struct HundredthsMemo {
    @usableFromInline
    struct Entry {
        /// `Double.bitPattern` of the number printed.
        @usableFromInline var bits: UInt64
        /// Its first sixteen bytes as they lie in memory, loaded from the line it was printed into: what is past
        /// `count` is whatever followed in the line's room, never counted into a line.
        @usableFromInline var low: UInt64
        @usableFromInline var high: UInt64
        @usableFromInline var count: Int
    }

    /// A power of two: a slot number is taken modulo the count.
    @usableFromInline static let slotCount = 64
    /// Longer numbers (over thirteen integer digits) are not kept: printed every time.
    @usableFromInline static let longestKept = 16

    @usableFromInline let entries: UnsafeMutablePointer<Entry>

    /// Every slot starts as +0.0, printed "0": a real entry, so a lookup needs no test that its slot was ever set.
    init() {
        entries = .allocate(capacity: Self.slotCount)
        let zero = Entry(bits: Double(0).bitPattern, low: UInt64(UInt8(ascii: "0")).littleEndian, high: 0, count: 1)
        entries.initialize(repeating: zero, count: Self.slotCount)
    }

    func deallocate() { entries.deallocate() }

    @inlinable @inline(__always)
    func entry(_ slot: Int) -> UnsafeMutablePointer<Entry> { entries + (slot & (Self.slotCount - 1)) }
}
