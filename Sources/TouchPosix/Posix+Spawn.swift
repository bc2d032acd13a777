import CShims

#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended (waitpid's status, decoded).
public enum ChildExit: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    public var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signalled(let signal): "killed by signal \(signal) (\(Signal.name(signal)))"
        }
    }
}

extension Posix {
    /// Starts `arguments[0]` (looked up in PATH when it has no slash, as execvp does) with `arguments` and exactly
    /// `environment` ("NAME=value" strings), without a shell. The child reads /dev/null, writes to this process's
    /// stdout and stderr, starts with no signal blocked (this process blocks the ones its signalfd reads) and leads
    /// a process group of its own, so `signalGroup` reaches whatever it starts in turn.
    /// - Throws: `SystemError("posix_spawn")` with the errno: ENOENT for a program that is not there, EACCES for
    ///   one that may not be run.
    public static func spawn(_ arguments: [String], environment: [String]) throws(SystemError) -> Int32 {
        precondition(!arguments.isEmpty, "a command needs a program")
        var pid: Int32 = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in touchd_spawn(argv[0], argv, envp, &pid) }
        }
        guard result == 0 else { throw SystemError("posix_spawn", errno: result, subject: arguments[0]) }
        return pid
    }

    /// Makes this process the one that reaps its children (`reapChild`): a parent that ignored SIGCHLD passes that
    /// on across exec, and then the kernel reaps each child itself, sends no SIGCHLD, and waitpid finds none.
    public static func reapsOwnChildren() {
        _ = Glibc.signal(SIGCHLD, SIG_DFL)
    }

    /// One child that has ended, reaped; nil when none has (or there are no children).
    public static func reapChild() -> (pid: Int32, exit: ChildExit)? {
        var pid: Int32 = 0
        var status: Int32 = 0
        var signal: Int32 = 0
        guard touchd_reap_child(&pid, &status, &signal) == 1 else { return nil }
        return (pid, signal > 0 ? .signalled(signal) : .exited(status))
    }

    /// Sends `signal` to the process group that `leader` leads (kill(-leader, signal)). A group already gone is
    /// not an error: the command may have ended a moment before.
    public static func signalGroup(_ leader: Int32, _ signal: Int32) {
        guard leader > 0 else { return }
        _ = Glibc.kill(-leader, signal)
    }

    /// Whether process group `group` has a member: kill(-group, 0) succeeds, or fails only for want of
    /// permission (a member that made itself another user's through a set-user-ID program is still a member).
    /// Unreaped zombies count: the caller reaps its own children first.
    public static func processGroupHasMember(_ group: Int32) -> Bool {
        guard group > 0 else { return false }
        return Glibc.kill(-group, 0) == 0 || errno == EPERM
    }

    /// Makes this process a child subreaper (prctl PR_SET_CHILD_SUBREAPER): a descendant whose parent exits
    /// (`sh -c 'sleep 30 &'`) is reparented here rather than to init, so its end comes here as a SIGCHLD and is
    /// reaped here (`reapChild`).
    public static func becomeChildSubreaper() throws(SystemError) {
        guard touchd_become_child_subreaper() == 0 else { throw SystemError("prctl(PR_SET_CHILD_SUBREAPER)") }
    }

    /// NUL-terminated copies of `strings` as a NULL-terminated `char *[]`, for the duration of `body`.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var array = pointers
        return array.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}

extension Signal {
    public static let child = SIGCHLD
    public static let kill = SIGKILL

    /// The signal's name without SIG, for log lines (`TERM`, `KILL`); the number for others.
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGTERM: "TERM"
        case SIGKILL: "KILL"
        case SIGINT: "INT"
        case SIGHUP: "HUP"
        case SIGSEGV: "SEGV"
        case SIGABRT: "ABRT"
        case SIGPIPE: "PIPE"
        case SIGQUIT: "QUIT"
        default: "\(signal)"
        }
    }
}

extension Posix {
    /// The process's environment as "NAME=value" strings.
    public static var environmentStrings: [String] {
        var result: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            result.append(String(cString: entry))
            pointer += 1
        }
        return result
    }

    /// Whether `path` names a regular file that exists (stat follows symlinks).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
