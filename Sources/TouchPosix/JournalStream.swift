#if canImport(Glibc)
    import Glibc
#endif

/// Whether a descriptor is the journal's stream. systemd connects a service's stdout or stderr to journald and
/// sets `JOURNAL_STREAM` to that stream's `DEVICE:INODE` (decimal); a program should speak the journal's `<N>`
/// prefixes only when its own descriptor is that file (systemd.exec(5), "JOURNAL_STREAM"): the variable is
/// inherited by children whose stderr was redirected, and a pipe or a file reads the prefix as text.
public enum JournalStream {
    /// Whether `value` (a `JOURNAL_STREAM`) names the file with this device and inode.
    public static func names(_ value: String?, device: UInt64, inode: UInt64) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let named = UInt64(parts[0]), let namedInode = UInt64(parts[1]) else { return false }
        return named == device && namedInode == inode
    }

    /// Whether `fd` is the stream `value` names (false when `fd` is not open).
    public static func isJournal(_ fd: Int32, value: String?) -> Bool {
        guard value != nil else { return false }
        guard let info = try? Posix.status(fd) else { return false }
        return names(value, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Whether standard error is the journal, by this process's `JOURNAL_STREAM`.
    public static var isStandardError: Bool { isJournal(2, value: Posix.environment("JOURNAL_STREAM")) }
}
