#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    /// Why a file could not be replaced.
    public enum ReplacementError: Error, CustomStringConvertible {
        /// The path is a symlink whose target does not exist: writing there would replace the link, not the file
        /// a person meant.
        case danglingSymlink(path: String)
        case system(SystemError)

        public var description: String {
            switch self {
            case .danglingSymlink(let path): "\(path) is a symlink to a file that does not exist"
            case .system(let error): "\(error)"
            }
        }
    }

    /// Replaces the file at `path` with `contents` as an editor that keeps a file's identity does: through a symlink
    /// (the link stays and its target gets the text), with the old file's mode and owner, written to a new file
    /// beside it, flushed, and renamed over it, so that a reader sees the old text or the new, never a part. A new
    /// file (none at `path`) gets `newFileMode`, less the umask.
    /// - Returns: the path written (the symlink's target, or `path`).
    @discardableResult
    public static func replaceFile(_ path: String, with contents: [UInt8], newFileMode: UInt32 = 0o644)
        throws(ReplacementError) -> String
    {
        var target = path
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else { throw .danglingSymlink(path: path) }
            target = String(cString: resolved)
            free(resolved)
        }
        var existing = stat()
        let exists = stat(target, &existing) == 0
        let temporary = target + ".touchd-new-\(getpid())"
        let fd = retryingInterrupts { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw .system(SystemError("open", subject: temporary)) }
        do throws(SystemError) {
            defer { close(fd) }
            if exists {
                guard fchmod(fd, existing.st_mode & 0o7777) == 0 else {
                    throw SystemError("fchmod", subject: temporary)
                }
                // Only root may give a file away; for anyone else the owner is already theirs, or the rename below
                // fails on the directory's permissions.
                if getuid() == 0, fchown(fd, existing.st_uid, existing.st_gid) != 0 {
                    throw SystemError("fchown", subject: temporary)
                }
            } else {
                let mask = umask(0)
                umask(mask)
                guard fchmod(fd, newFileMode & ~mask) == 0 else { throw SystemError("fchmod", subject: temporary) }
            }
            try writeAll(fd, contents)
            guard fsync(fd) == 0 else { throw SystemError("fsync", subject: temporary) }
            guard rename(temporary, target) == 0 else { throw SystemError("rename", subject: target) }
        } catch {
            unlink(temporary)
            throw .system(error)
        }
        return target
    }
}
