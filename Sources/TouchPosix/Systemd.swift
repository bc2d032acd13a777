import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// What systemd offers a service: readiness and status notifications (sd_notify), a watchdog, and sockets it
/// opened on the service's behalf (socket activation, sd_listen_fds). Each is a no-op outside systemd.
public enum Systemd {
    public static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }

    /// The listening socket systemd passed (touchd.socket), if any.
    public static func passedListeningSocket() -> Int32? {
        let count = sd_listen_fds(1)
        guard count >= 1 else { return nil }
        let fd = SD_LISTEN_FDS_START
        guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else { return nil }
        try? Posix.setNonBlocking(fd)
        return fd
    }

    /// The watchdog interval in microseconds when WatchdogSec is set for this process.
    public static func watchdogInterval() -> Int64? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return Int64(usec)
    }
}
