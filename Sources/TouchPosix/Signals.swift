import Glibc

/// The signals touchd and touchctl handle, by name (for `SignalSource`), so callers need not import Glibc.
public enum Signal {
    public static let terminate = SIGTERM
    public static let interrupt = SIGINT
    public static let hangup = SIGHUP
    /// The terminal was resized.
    public static let windowChanged = SIGWINCH
}
