import CShims

/// inotify: what `FileWatch` reads.
extension Posix {
    /// inotify_init1(IN_NONBLOCK | IN_CLOEXEC).
    static func inotifyCreate() throws(SystemError) -> Int32 {
        let fd = touchd_inotify_create()
        guard fd >= 0 else { throw SystemError("inotify_init1") }
        return fd
    }

    /// inotify_add_watch on `directory` for files created, written (closed after writing) or moved into it.
    static func inotifyWatch(_ fd: Int32, directory: String) throws(SystemError) {
        guard touchd_inotify_watch_directory(fd, directory) >= 0 else {
            throw SystemError("inotify_add_watch", subject: directory)
        }
    }

    /// The names that pending events carry, one read's worth into `buffer`, NUL-separated; 0 when nothing is
    /// pending (or the read failed).
    static func inotifyReadNames(_ fd: Int32, into buffer: inout [CChar]) -> Int {
        let count = buffer.withUnsafeMutableBufferPointer {
            touchd_inotify_read_names(fd, $0.baseAddress, Int32($0.count))
        }
        return max(Int(count), 0)
    }
}
