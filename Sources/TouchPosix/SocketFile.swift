import CShims

#if canImport(Glibc)
    import Glibc
#endif

/// The listening socket's file: created without following a symlink or racing another user of its directory, and
/// removed at the end only while the path still names the inode touchd created (never a file that replaced it).
public struct SocketFile: Sendable {
    public let descriptor: Int32
    public let path: String
    /// The socket's directory, held open from creation to removal: every later step works by this descriptor, so
    /// a parent directory renamed and replaced by a symlink cannot redirect the unlink at exit.
    let directory: Int32
    let name: String
    let device: UInt64
    let inode: UInt64

    /// Why the socket file could not be put in place, with the path and what was found there.
    public struct PlacementError: Error, Equatable, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "socket \(path): \(message)" }
    }

    /// Claims `path` (reclaiming a stale socket of ours; refusing anything else), then binds and listens there with
    /// `mode` and, if given, `group`. A missing parent directory is made (0755, the last component only).
    public static func create(path: String, mode: UInt32, group: UInt32?, backlog: Int32 = 64)
        throws(PlacementError) -> SocketFile
    {
        func fail(_ message: String) -> PlacementError { PlacementError(path: path, message: message) }
        guard path.utf8.count < 108 else { throw fail("longer than the 107 bytes a socket path may have") }
        let (directoryPath, name) = split(path)
        guard !name.isEmpty, name != ".", name != ".." else { throw fail("names no file") }
        let directory = try openDirectory(directoryPath, for: path)
        do throws(PlacementError) {
            try reclaimStale(path, directory: directory, name: name)
            var device: UInt64 = 0
            var inode: UInt64 = 0
            var step: Int32 = 0
            let descriptor = touchd_unix_listen_private(
                directory, name, mode, group.map { Int64($0) } ?? -1, backlog, &device, &inode, &step)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                switch step {
                case Int32(touchd_place_private_directory), Int32(touchd_place_private_directory_raced):
                    throw fail("cannot make a private directory in \(directoryPath) to create it in: \(reason)")
                case Int32(touchd_place_chown): throw fail("cannot give it group \(group ?? 0): \(reason)")
                case Int32(touchd_place_link) where errno == EEXIST:
                    throw fail("something appeared at the path while touchd created it; nothing was replaced")
                case Int32(touchd_place_link): throw fail("cannot link it into place: \(reason)")
                default: throw fail("cannot bind and listen: \(reason)")
                }
            }
            return SocketFile(
                descriptor: descriptor, path: path, directory: directory, name: name, device: device, inode: inode)
        } catch {
            Posix.close(directory)
            throw error
        }
    }

    /// Unlinks the socket if its name still names the socket touchd created; returns what it did, for the log.
    @discardableResult
    public func removeIfStillOurs() -> Removal {
        defer { Posix.close(directory) }
        guard let entry = Entry.at(name, in: directory) else { return .alreadyGone }
        guard entry.device == device, entry.inode == inode else { return .replaced }
        return touchd_unlink_at(directory, name) == 0 ? .removed : .failed(SystemError("unlink", subject: path))
    }

    public enum Removal: Equatable, Sendable {
        case removed
        case alreadyGone
        /// Something else is at the path now: it is left alone.
        case replaced
        case failed(SystemError)
    }

    /// The directory the socket goes in, opened; when it does not exist (and its parent does), made with mode 0755
    /// whatever the umask, refusing to make it through a symlink.
    static func openDirectory(_ directoryPath: String, for path: String) throws(PlacementError) -> Int32 {
        let opened = touchd_open_directory(directoryPath)
        if opened >= 0 { return opened }
        let reason = String(cString: strerror(errno))
        guard errno == ENOENT else {
            throw PlacementError(path: path, message: "cannot open its directory \(directoryPath): \(reason)")
        }
        let (parentPath, directoryName) = split(directoryPath)
        let parent = touchd_open_directory(parentPath)
        guard parent >= 0 else {
            throw PlacementError(
                path: path,
                message:
                    "its directory \(directoryPath) does not exist, nor does its parent (\(String(cString: strerror(errno))))"
            )
        }
        defer { Posix.close(parent) }
        let made = touchd_make_directory(parent, directoryName, 0o755)
        guard made >= 0 else {
            throw PlacementError(
                path: path, message: "cannot make its directory \(directoryPath): \(String(cString: strerror(errno)))")
        }
        return made
    }

    /// A stale socket (ours, refusing connections) is removed; a live one, a socket of another user, or anything
    /// that is not a socket is refused with what it is.
    static func reclaimStale(_ path: String, directory: Int32, name: String) throws(PlacementError) {
        func fail(_ message: String) -> PlacementError { PlacementError(path: path, message: message) }
        guard let entry = Entry.at(name, in: directory) else { return }
        guard entry.type == UInt32(S_IFSOCK) else {
            throw fail("exists and is \(entry.typeName), not a socket; touchd does not remove it")
        }
        guard entry.owner == geteuid() else {
            throw fail("is a socket of uid \(entry.owner), not of touchd's uid \(geteuid()); touchd does not remove it")
        }
        // Without waiting: a server that is stopped with a full backlog answers EAGAIN, and touchd must not hang
        // here (its stop signals are already blocked for the loop).
        let probe = touchd_unix_connect_nonblocking(path)
        if probe >= 0 {
            Posix.close(probe)
            throw fail("another touchd is listening there")
        }
        switch errno {
        case ECONNREFUSED: break
        case EAGAIN: throw fail("another server is listening there (its backlog is full)")
        default: throw fail("cannot tell whether a server listens there: \(String(cString: strerror(errno)))")
        }
        // Unlink only the socket just examined: a swap in between leaves the newcomer alone.
        guard let again = Entry.at(name, in: directory), again.device == entry.device, again.inode == entry.inode
        else { return }
        _ = touchd_unlink_at(directory, name)
    }

    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// What fstatat says of a name in a directory, without following a symlink.
    struct Entry {
        var type: UInt32
        var owner: UInt32
        var device: UInt64
        var inode: UInt64

        static func at(_ name: String, in directory: Int32) -> Entry? {
            var entry = Entry(type: 0, owner: 0, device: 0, inode: 0)
            guard touchd_lstat_at(directory, name, &entry.type, &entry.owner, &entry.device, &entry.inode) == 1 else {
                return nil
            }
            return entry
        }

        var typeName: String {
            switch Int32(bitPattern: type) {
            case Int32(S_IFREG): "a regular file"
            case Int32(S_IFDIR): "a directory"
            case Int32(S_IFLNK): "a symbolic link"
            case Int32(S_IFIFO): "a FIFO"
            case Int32(S_IFCHR): "a character device"
            case Int32(S_IFBLK): "a block device"
            default: "not a socket"
            }
        }
    }
}
