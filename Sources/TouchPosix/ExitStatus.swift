/// A program's exit status, as sysexits(3) names them, so that a caller (a script, systemd's
/// `RestartPreventExitStatus=`) can tell a mistake it must fix from a failure that may pass.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// A failure sysexits has no name for.
    case failure = 1
    /// EX_USAGE: the command line was wrong.
    case usage = 64
    /// EX_DATAERR: an input file's contents are wrong.
    case dataError = 65
    /// EX_NOINPUT: an input file does not exist or cannot be read.
    case noInput = 66
    /// EX_UNAVAILABLE: something the command needs is not there (a device).
    case unavailable = 69
    /// EX_SOFTWARE: touchd's own fault.
    case software = 70
    /// EX_OSERR: a system call failed.
    case osError = 71
    /// EX_CANTCREAT: an output file (or the socket) cannot be created.
    case cannotCreate = 73
    /// EX_IOERR: reading or writing failed midway.
    case ioError = 74
    /// EX_TEMPFAIL: try again later.
    case temporaryFailure = 75
    /// EX_NOPERM: not allowed.
    case noPermission = 77
    /// EX_CONFIG: the configuration is missing or wrong.
    case configuration = 78

    /// `  64  usage: ...`-style lines for a `--help`, one per status given.
    public static func helpLines(_ meanings: [(ExitStatus, String)]) -> String {
        meanings.map { status, meaning in
            let number = String(status.rawValue)
            return "  " + String(repeating: " ", count: max(0, 3 - number.count)) + number + "  " + meaning
        }.joined(separator: "\n")
    }
}
