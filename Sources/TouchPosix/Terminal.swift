import CShims

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
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw SystemError("tcgetattr") }
        return TerminalMode(saved: settings)
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
        var settings = saved
        guard Posix.retryingInterrupts({ tcsetattr(fd, TCSADRAIN, &settings) }) == 0 else {
            throw SystemError("tcsetattr")
        }
    }
}

extension Posix {
    /// The size of the terminal `fd` in character cells (TIOCGWINSZ); nil when it is not a terminal or reports 0.
    public static func terminalSize(_ fd: Int32) -> (rows: Int, columns: Int)? {
        var rows: UInt16 = 0
        var columns: UInt16 = 0
        guard touchd_terminal_size(fd, &rows, &columns) == 0, rows > 0, columns > 0 else { return nil }
        return (Int(rows), Int(columns))
    }
}

/// A nonblocking pipe that one thread writes to wake another's event loop.
public final class WakeupPipe: Sendable {
    public let readEnd: Int32
    private let writeEnd: Int32

    public init() throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        guard touchd_pipe_nonblocking(&fds) == 0 else { throw SystemError("pipe2") }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        Posix.close(readEnd)
        Posix.close(writeEnd)
    }

    /// Makes the read end readable. A full pipe is already readable, so EAGAIN is not a failure.
    public func wake() {
        var byte: UInt8 = 1
        _ = Posix.retryingInterrupts { Glibc.write(writeEnd, &byte, 1) }
    }

    /// Empties the pipe, so that the read end is readable again only after the next `wake`.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while case .bytes? = try? Posix.read(readEnd, into: &buffer, count: buffer.count) {}
    }
}
