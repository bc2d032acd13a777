#if canImport(Glibc)
    import Glibc
#endif

/// A terminal's line discipline, saved so that it can be put back exactly.
///
/// Raw mode (cfmakeraw): keys arrive one byte at a time, unechoed, and Ctrl-C is the byte 3 rather than SIGINT,
/// so the program decides how to end and can restore the terminal first.
public struct TerminalMode: Sendable {
    fileprivate var saved: termios

    /// Reads the current settings of the terminal `fd` (tcgetattr).
    public static func current(_ fd: Int32) throws(SystemError) -> TerminalMode {
        TerminalMode(saved: try Posix.terminalSettings(fd))
    }

    /// The same settings in raw mode, with output post-processing kept (so a newline still returns the carriage).
    public var raw: TerminalMode {
        var settings = saved
        cfmakeraw(&settings)
        settings.c_oflag |= tcflag_t(OPOST | ONLCR)
        return TerminalMode(saved: settings)
    }

    /// Applies these settings once pending output is written (tcsetattr TCSADRAIN); retried when a signal
    /// interrupts it.
    public func apply(to fd: Int32) throws(SystemError) {
        try Posix.setTerminalSettings(fd, saved)
    }
}
