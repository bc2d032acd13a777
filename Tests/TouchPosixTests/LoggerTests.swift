import Testing
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Log lines and the journal")
struct LoggerTests {
    final class Lines: LogHandler, @unchecked Sendable {
        var lines: [String] = []
        func write(_ line: String) { lines.append(line) }
    }

    @Test("a forged region id logs as one line, its control characters escaped, in either style")
    func forgedID() {
        let sink = Lines()
        let id = "x)\n<0>touchd: FORGED \u{1b}]0;title\u{07}\u{85}\u{2028}\u{202e}\\"
        Logger(threshold: .info, style: .journald, handler: sink).notice("region '\(id)' dropped")
        Logger(threshold: .info, style: .plain, handler: sink).notice("region '\(id)' dropped")
        let escaped = #"x)\n<0>touchd: FORGED \x1b]0;title\x07\u{85}\u{2028}\u{202e}\\"#
        #expect(sink.lines == ["<5>region '\(escaped)' dropped", "touchd: notice: region '\(escaped)' dropped"])
        #expect(sink.lines.allSatisfy { !$0.contains("\n") })
        #expect(ControlEscaping.escaped("plain text, é ✓") == "plain text, é ✓")
    }

    @Test("JOURNAL_STREAM counts only when it names the descriptor's own device and inode (a real pipe's fstat)")
    func journalStream() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var info = stat()
        try #require(fstat(fds[1], &info) == 0)
        let own = "\(info.st_dev):\(info.st_ino)"
        #expect(JournalStream.isJournal(fds[1], value: own))
        #expect(!JournalStream.isJournal(fds[1], value: "\(info.st_dev):\(info.st_ino + 1)"))
        #expect(!JournalStream.isJournal(fds[1], value: nil))
        #expect(!JournalStream.isJournal(fds[1], value: "garbage"))
        #expect(!JournalStream.isJournal(-1, value: own))
    }
}
