import Foundation
import Testing
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

/// `touchctl calibrate` writes its rule back with `Posix.replaceFile`, not Foundation's atomic write, which would
/// replace a symlinked configuration with a regular file (the link's target unchanged) and give it mode 0644.
@Suite("replacing a file keeps its symlink, mode and owner, and never leaves a half-written file")
struct FileReplacementTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "touchd-replace-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    @Test("through a symlink: the link stays, its target gets the text and keeps mode 0640")
    func throughASymlink() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let real = directory + "/real.json"
        let link = directory + "/link.json"
        try "{}\n".write(toFile: real, atomically: false, encoding: .utf8)
        chmod(real, 0o640)
        #expect(symlink(real, link) == 0)
        let written = try Posix.replaceFile(link, with: Array("{\"devices\": []}\n".utf8))
        #expect(written == real)
        #expect(isSymlink(link))
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "{\"devices\": []}\n")
        #expect(mode(real) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["link.json", "real.json"])
    }

    @Test("a symlink to nothing is refused and left as it is")
    func danglingSymlink() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/link.json"
        #expect(symlink(directory + "/missing.json", link) == 0)
        #expect(throws: Posix.ReplacementError.self) { try Posix.replaceFile(link, with: Array("{}".utf8)) }
        #expect(isSymlink(link))
        #expect(!FileManager.default.fileExists(atPath: directory + "/missing.json"))
    }

    @Test("a new file gets 0644 less the umask; a directory that refuses leaves nothing behind")
    func newFileAndFailure() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/new.json"
        let old = umask(0o027)
        defer { umask(old) }
        try Posix.replaceFile(path, with: Array("{}\n".utf8))
        #expect(mode(path) == 0o640)
        // A path under a regular file cannot be created: the error names the call, and no temporary file stays.
        #expect(throws: Posix.ReplacementError.self) { try Posix.replaceFile(path + "/x", with: Array("{}".utf8)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["new.json"])
    }
}
