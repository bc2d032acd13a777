import Glibc

/// The signals the daemon handles, by name (for `SignalSource`), so callers need not import Glibc.
public enum Signal {
    public static let terminate = SIGTERM
    public static let interrupt = SIGINT
    public static let hangup = SIGHUP
}
