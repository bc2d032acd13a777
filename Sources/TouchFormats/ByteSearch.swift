// memchr alone, by name: a pure function of its bytes. The purity check (scripts/check-purity.sh) allows this one
// scoped import in a pure module and no other use of a C library.
import func Glibc.memchr

/// Finds a byte: the line readers look for every `\n` of a recording (and the evemu fast path for a NUL in a
/// comment), so this is most of the bytes a replay touches. libc's memchr does it a vector register at a time.
enum ByteSearch {
    /// The index of the first `byte` in `bytes[from..<to]`, or `to` when there is none (`from` itself when the
    /// range is empty or reversed).
    @inline(__always)
    static func first(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to else { return from }
        precondition(from >= 0 && to <= bytes.count, "byte range outside the buffer")
        guard let base = bytes.baseAddress else { return to }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
    }

    /// The first `\n` in `start..<end`, or nil: for a short search, such as to the end of evemu-record's comment
    /// (about 30 bytes), where calling memchr and saving the caller's registers around it cost more than the search.
    /// Sixteen bytes are compared at a time; the last few before `end` go to memchr.
    @inline(__always)
    static func firstNewline(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        var position = start
        let newlines = SIMD16<UInt8>(repeating: ASCII.newline)
        while end - position >= 16 {
            let bytes = UnsafeRawPointer(position).loadUnaligned(as: SIMD16<UInt8>.self)
            if any(bytes .== newlines) {
                // Which byte: the lowest zero byte of each half XOR `\n` (a borrow only runs above a zero byte).
                let halves = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
                let low = Self.zeroBytes(UInt64(littleEndian: halves[0]) ^ 0x0a0a_0a0a_0a0a_0a0a)
                if low != 0 { return position + low.trailingZeroBitCount >> 3 }
                let high = Self.zeroBytes(UInt64(littleEndian: halves[1]) ^ 0x0a0a_0a0a_0a0a_0a0a)
                return position + 8 + high.trailingZeroBitCount >> 3
            }
            position += 16
        }
        return lastNewline(from: position, to: end)
    }

    /// `firstNewline` in the last bytes before `end`, fewer than sixteen.
    @inline(never)
    private static func lastNewline(
        from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>
    ) -> UnsafePointer<UInt8>? {
        let rest = end - start
        let found = first(ASCII.newline, in: UnsafeBufferPointer(start: start, count: rest), from: 0, to: rest)
        return found < rest ? start + found : nil
    }

    /// The top bit of the lowest zero byte of `word` is set, and no bit below it (bits above it may be).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }
}
