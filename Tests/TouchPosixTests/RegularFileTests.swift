import Foundation
import Testing
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon reads its scene inside the event loop: a FIFO put at the path must be refused at once (an open
/// without O_NONBLOCK waits for a writer, and the whole daemon with it), and a huge file refused at the limit.
@Suite("Reading a file that must be a regular file")
struct RegularFileTests {
    func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "touchd-regular-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }

    @Test("a FIFO with no writer is refused at once as not a regular file, directly or through a symlink")
    func fifoRefused() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/scene.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = directory + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fifo)
        for path in [fifo, link] {
            let started = MonotonicClock.nowMicroseconds()
            let error = try #require(throws: FileReader.Failure.self) {
                try FileReader.readRegularFile(path, limit: 1 << 20)
            }
            #expect(error.reason == .notRegular)
            #expect(error.description == "\(path): is not a regular file")
            #expect(MonotonicClock.nowMicroseconds() - started < 1_000_000)
        }
        // FileReader.read, for recordings, still takes a FIFO (process substitution): with a writer it reads.
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = "E: 0.0\n".withCString { write(fd, $0, 7) }
            close(fd)
        }
        writer.start()
        #expect(try FileReader.read(fifo) == Array("E: 0.0\n".utf8))
    }

    @Test("a regular file is read whole up to the limit; one byte more is refused")
    func limit() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/big.json"
        let bytes = [UInt8](repeating: 0x20, count: 100_000)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(try FileReader.readRegularFile(path, limit: 100_000) == bytes)
        let error = try #require(throws: FileReader.Failure.self) {
            try FileReader.readRegularFile(path, limit: 99_999)
        }
        #expect(error.reason == .tooLarge(99_999))
    }
}
