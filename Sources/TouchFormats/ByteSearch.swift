/// Finds a byte eight at a time: the line readers look for every `\n` of a recording (and the evemu fast path
/// for a NUL in a comment), so this is most of the bytes a replay touches.
enum ByteSearch {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first `byte` in `bytes[from..<to]`, or `to` when there is none.
    static func first(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard let base = bytes.baseAddress else { return to }
        var index = from
        let pattern = ones &* UInt64(byte)
        while index + 8 <= to {
            // A zero byte in word ^ pattern is a match; the lowest flagged byte is exactly the first one (higher
            // flags can be false, from the borrow).
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ pattern
            let found = (word &- ones) & ~word & highs
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < to && base[index] != byte { index += 1 }
        return index
    }
}
