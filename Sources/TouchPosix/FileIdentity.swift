#if canImport(Glibc)
    import Glibc
#endif

/// Which file an open descriptor reads and how it stood: a reader that reads a file twice compares the second
/// time's with the first's, to know it reads what it read before.
public struct FileIdentity: Equatable, Sendable, CustomStringConvertible {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// The last modification, in seconds and nanoseconds since the epoch.
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64

    /// The file `fd` is open on, as fstat(2) finds it now; nil when fstat fails.
    public init?(descriptor fd: Int32) {
        guard let info = try? Posix.status(fd) else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
    }

    public var description: String {
        let nanoseconds = String(modifiedNanoseconds)
        let padded = String(repeating: "0", count: max(9 - nanoseconds.count, 0)) + nanoseconds
        return "\(size) bytes, modified at \(modifiedSeconds).\(padded), inode \(inode)"
    }
}
