import TouchPosix

/// Finds a byte: the line readers look for every `\n` of a recording (and the evemu fast path for a NUL in a
/// comment), so this is most of the bytes a replay touches. libc's memchr does it a vector register at a time.
enum ByteSearch {
    /// The index of the first `byte` in `bytes[from..<to]`, or `to` when there is none.
    @inline(__always)
    static func first(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        Posix.firstIndex(of: byte, in: bytes, from: from, to: to)
    }
}
