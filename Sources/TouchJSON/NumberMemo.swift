/// Numbers a template line printed, kept by the writer for later lines, in slots its caller names: a touch line
/// prints eight two-decimal numbers, and half of them are usually Doubles printed just before (`local_x` is `x` when
/// the region is at the origin, `prev_x` is the same finger's `x` on its previous line); every line of a frame,
/// and the frame's own, prints the same time. Reusing a slot copies the bytes instead of printing the number again.
///
/// A slot is reused only for the bit-identical number of the same printer (two-decimal Doubles and integers have
/// slots of their own), so a copy is the very bytes the printer made for that value (each printer is a function of
/// the bits alone): which slot a caller picks changes the cost, never the output. A writer's buffer storage owns
/// one (`ByteBuffer`), made at its first template line; only a buffer known to be uniquely referenced hands it to a
/// cursor, so a memo is never written through two buffers at once.
@usableFromInline
struct NumberMemo {
    @usableFromInline
    struct Entry {
        /// The bit pattern of the number printed (`Double.bitPattern`, or the integer's).
        @usableFromInline var bits: UInt64
        /// Its first sixteen bytes as they lie in memory, loaded from the line it was printed into: what is past
        /// `count` is whatever followed in the line's room, never counted into a line.
        @usableFromInline var low: UInt64
        @usableFromInline var high: UInt64
        @usableFromInline var count: Int

        @usableFromInline
        init(bits: UInt64, low: UInt64, high: UInt64, count: Int) {
            self.bits = bits
            self.low = low
            self.high = high
            self.count = count
        }
    }

    /// Slots of each printer; a power of two: a slot number is taken modulo the count.
    @usableFromInline static let slotCount = 64
    /// Longer numbers (over thirteen integer digits, or sixteen characters of an integer) are not kept.
    @usableFromInline static let longestKept = 16

    /// The two-decimal slots, then the integer slots.
    @usableFromInline let entries: UnsafeMutablePointer<Entry>

    /// Every slot starts as zero (+0.0 or the integer 0), printed "0" by both printers: a real entry, so a lookup
    /// needs no test that its slot was ever set.
    init() {
        entries = .allocate(capacity: 2 * Self.slotCount)
        let zero = Entry(bits: 0, low: UInt64(UInt8(ascii: "0")).littleEndian, high: 0, count: 1)
        entries.initialize(repeating: zero, count: 2 * Self.slotCount)
    }

    func deallocate() { entries.deallocate() }

    /// A two-decimal number's slot.
    @inlinable @inline(__always)
    func entry(_ slot: Int) -> UnsafeMutablePointer<Entry> { entries + (slot & (Self.slotCount - 1)) }

    /// An integer's slot.
    @inlinable @inline(__always)
    func integerEntry(_ slot: Int) -> UnsafeMutablePointer<Entry> {
        entries + Self.slotCount + (slot & (Self.slotCount - 1))
    }
}
