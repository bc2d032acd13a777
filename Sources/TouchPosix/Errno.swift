#if canImport(Glibc)
    import Glibc
#endif

/// errno values that callers outside this module compare `SystemError.errno` with, by swift-system's names.
public enum Errno {
    public static let noSuchFileOrDirectory = ENOENT
    public static let connectionRefused = ECONNREFUSED
    public static let resourceTemporarilyUnavailable = EAGAIN
}
