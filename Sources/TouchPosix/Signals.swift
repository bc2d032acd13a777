import Glibc

/// The signals touchd and touchctl handle, by name (for `SignalSource`), so callers need not import Glibc.
public enum Signal {
    public static let terminate = SIGTERM
    public static let interrupt = SIGINT
    public static let hangup = SIGHUP
    /// The terminal was resized.
    public static let windowChanged = SIGWINCH

    /// Lets `signals` through again after a `SignalSource` blocked them (it blocks them for the whole process, and
    /// leaves them blocked when it goes): a program that goes on after its loop (a prompt) wants Ctrl-C to work.
    public static func unblock(_ signals: [Int32]) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }
}
