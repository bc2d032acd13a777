import FoundationEssentials
import Glibc

/// Watches one file by its directory with inotify, so an editor's save (write in place, or write and rename)
/// is seen: `changed` runs when an event names the file. A symlinked file is watched at both ends: the link's
/// directory (the link swapped) and its target's (the target edited), followed again after each change.
public final class FileWatch {
    private let fd: Int32
    private let path: String
    /// The names that count: the file's own, and its target's when it is a symlink (a same-named file in one of the
    /// two directories changing only reloads once more).
    private var names: Set<String> = []
    private var watchedDirectories: Set<String> = []
    private var token: UInt64 = 0
    /// Weak, as `LoopTimer`'s: a watch released before its loop deregisters its handler (which holds `changed`).
    private weak var loop: EventLoop?

    public init(loop: EventLoop, path: String, changed: @escaping () -> Void) throws(SystemError) {
        fd = try Posix.inotifyCreate()
        self.path = path
        do {
            try watch(path)
        } catch {
            Posix.close(fd)
            throw error
        }
        followTarget()
        self.loop = loop
        let descriptor = fd
        token = try loop.register(fd, for: .readable) { [weak self] _ in
            guard let self else { return }
            var buffer = [CChar](repeating: 0, count: 8192)
            var touched = false
            while true {
                let count = Posix.inotifyReadNames(descriptor, into: &buffer)
                guard count > 0 else { break }
                let read = buffer[0..<count].split(separator: 0).map {
                    String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
                if read.contains(where: names.contains) { touched = true }
            }
            guard touched else { return }
            followTarget()
            changed()
        }
    }

    deinit {
        loop?.deregister(token)
        Posix.close(fd)
    }

    /// Adds `file`'s directory to the watch and its name to the names that count.
    private func watch(_ file: String) throws(SystemError) {
        let url = URL(fileURLWithPath: file)
        let directory = url.deletingLastPathComponent().path
        names.insert(url.lastPathComponent)
        guard !watchedDirectories.contains(directory) else { return }
        try Posix.inotifyWatch(fd, directory: directory)
        watchedDirectories.insert(directory)
    }

    /// Where the path leads now, when it is a symlink (to a file that exists): watched too.
    private func followTarget() {
        guard let resolved = realpath(path, nil) else { return }
        defer { free(resolved) }
        let target = String(cString: resolved)
        if target != path { try? watch(target) }
    }
}
