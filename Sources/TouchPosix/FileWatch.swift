import CShims
import FoundationEssentials
import Glibc

/// Watches one file by its directory with inotify, so an editor's save (write in place, or write and rename)
/// is seen: `changed` runs when an event names the file.
public final class FileWatch {
    private let fd: Int32

    public init(loop: EventLoop, path: String, changed: @escaping () -> Void) throws(SystemError) {
        fd = touchd_inotify_create()
        guard fd >= 0 else { throw SystemError("inotify_init1") }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        guard touchd_inotify_watch_directory(fd, directory) >= 0 else {
            Posix.close(fd)
            throw SystemError("inotify_add_watch", subject: directory)
        }
        let descriptor = fd
        try loop.register(fd, for: .readable) { _ in
            var buffer = [CChar](repeating: 0, count: 8192)
            var touched = false
            while true {
                let count = buffer.withUnsafeMutableBufferPointer {
                    touchd_inotify_read_names(descriptor, $0.baseAddress, Int32($0.count))
                }
                guard count > 0 else { break }
                let names = buffer[0..<Int(count)].split(separator: 0).map {
                    String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
                if names.contains(name) { touched = true }
            }
            if touched { changed() }
        }
    }

    deinit { Posix.close(fd) }
}
