import TouchPosix
import TouchView

/// The terminal while the view runs: raw mode, the alternate screen, the cursor hidden. `restore` puts all of it
/// back, once, whatever ended the view.
final class TerminalSession {
    private let input: Int32
    private let output: Int32
    private let saved: TerminalMode
    private var restored = false

    init(input: Int32 = 0, output: Int32 = 1) throws(SystemError) {
        self.input = input
        self.output = output
        saved = try TerminalMode.current(input)
        try saved.raw.apply(to: input)
        write(ANSIEncoder.enterAlternateScreen)
    }

    deinit { restore() }

    var size: (rows: Int, columns: Int) { Posix.terminalSize(output) ?? (24, 80) }

    func restore() {
        guard !restored else { return }
        restored = true
        write(ANSIEncoder.leaveAlternateScreen)
        try? saved.apply(to: input)
    }

    /// Writes a whole frame in one go; false when the terminal is gone (EIO after a hangup).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        do {
            try Posix.writeAll(output, bytes)
            return true
        } catch {
            return false
        }
    }

    func write(_ text: String) { write(Array(text.utf8)) }
}
