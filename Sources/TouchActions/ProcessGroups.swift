import CShims
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The system calls behind a command's process tree (docs/actions.md, "Commands"): this process adopts the
/// orphans of its commands, and a command's process group is asked whether any of it still lives.
enum ProcessGroups {
    /// Makes this process a child subreaper: a command's process whose parent exits (`sh -c 'sleep 30 &'`) is
    /// reparented here rather than to init, so its end comes here as a SIGCHLD and is reaped here, and nothing a
    /// command started is left behind as another's child while touchd-actions runs.
    static func adoptOrphans() throws(SystemError) {
        guard touchd_become_child_subreaper() == 0 else { throw SystemError("prctl(PR_SET_CHILD_SUBREAPER)") }
    }

    /// Whether process group `group` has a member: kill(-group, 0) succeeds, or fails only for want of
    /// permission (a member that made itself another user's through a set-user-ID program is still a member).
    /// Unreaped zombies count: the caller reaps its own children first.
    static func hasMember(_ group: Int32) -> Bool {
        guard group > 0 else { return false }
        return Glibc.kill(-group, 0) == 0 || errno == EPERM
    }
}
