#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    /// The index of the first `byte` in `bytes[from..<to]`, or `to` when there is none (`from` itself when the
    /// range is empty or reversed): libc's memchr, which reads a vector register at a time (a recording's every
    /// line end is found this way). Inlinable: a call to this wrapper cost about as much as memchr on a line.
    @inlinable
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to else { return from }
        precondition(from >= 0 && to <= bytes.count, "byte range outside the buffer")
        guard let base = bytes.baseAddress else { return to }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
    }
}
