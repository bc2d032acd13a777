/// touchd-actions' exit statuses, from sysexits(3), so that a service manager (and a person) can tell a mistake to
/// fix from a failure worth a restart; `--help` lists them, and the user unit restarts on none of the former.
public enum ActionsExit {
    /// Stopped by SIGTERM or SIGINT, or `--check` passed.
    public static let stopped: Int32 = 0
    /// EX_USAGE: an unknown argument, or one without its value.
    public static let usage: Int32 = 64
    /// EX_NOINPUT: the actions file is missing, unreadable, not a regular file, or too large.
    public static let noInput: Int32 = 66
    /// EX_UNAVAILABLE: touchd refused the subscription to gesture and scene events (a touchd too old for them).
    public static let unavailable: Int32 = 69
    /// EX_OSERR: a system call this process needs to run failed (the event loop, its signalfd or timerfd, prctl).
    public static let systemError: Int32 = 71
    /// EX_IOERR: the output of `--help`, `--version` or `--check` could not be written (a full disk).
    public static let ioError: Int32 = 74
    /// EX_NOPERM: touchd does not let this user change the scene, which the file's regions need.
    public static let noPermission: Int32 = 77
    /// EX_CONFIG: the actions file is invalid, or touchd refused one of its regions.
    public static let configuration: Int32 = 78

    /// For `--help`.
    public static let summary = """
        Exit status: 0 stopped by SIGTERM or SIGINT, or --check passed; 64 a usage error; 66 the actions file is
        missing or unreadable; 69 touchd refused the event subscription; 71 a system call failed; 74 its output could not be written; 77 touchd does
        not let this user change the scene (the file's regions need it); 78 the actions file is invalid, or touchd
        refused one of its regions.
        """
}
