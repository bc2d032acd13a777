import CShims

#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }

    /// The size of the terminal `fd` in character cells (TIOCGWINSZ); nil when it is not a terminal or reports 0.
    public static func terminalSize(_ fd: Int32) -> (rows: Int, columns: Int)? {
        var rows: UInt16 = 0
        var columns: UInt16 = 0
        guard touchd_terminal_size(fd, &rows, &columns) == 0, rows > 0, columns > 0 else { return nil }
        return (Int(rows), Int(columns))
    }

    /// tcgetattr: the terminal's settings now.
    static func terminalSettings(_ fd: Int32) throws(SystemError) -> termios {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw SystemError("tcgetattr") }
        return settings
    }

    /// tcsetattr TCSADRAIN: `settings` applied once pending output is written; retried when a signal interrupts it.
    static func setTerminalSettings(_ fd: Int32, _ settings: termios) throws(SystemError) {
        var settings = settings
        guard retryingInterrupts({ tcsetattr(fd, TCSADRAIN, &settings) }) == 0 else {
            throw SystemError("tcsetattr")
        }
    }
}
