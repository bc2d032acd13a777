#if canImport(Glibc)
    import Glibc
#endif

/// Group names from the system's group database (NSS: /etc/group, systemd-sysusers, LDAP …).
public enum Groups {
    /// The id of a group given by name, or by number as a string; nil when no such group exists.
    public static func id(of name: String) -> UInt32? {
        if let entry = getgrnam(name) { return entry.pointee.gr_gid }
        return UInt32(name)
    }
}
