import CShims

#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    /// A connection to the Unix socket at `path`, made without waiting: a listener whose backlog is full answers
    /// EAGAIN instead of blocking the caller. The descriptor is nonblocking and close-on-exec.
    public static func connect(unixSocket path: String) throws(SystemError) -> Int32 {
        // Not retried on EINTR: a nonblocking connect to a Unix socket does not sleep, so it is not interrupted.
        let fd = touchd_unix_connect_nonblocking(path)
        guard fd >= 0 else { throw SystemError("connect", subject: path) }
        return fd
    }

    /// SO_SNDTIMEO: a blocking send that the peer does not take within the time ends instead of waiting for ever.
    public static func setSendTimeout(_ fd: Int32, milliseconds: Int) throws(SystemError) {
        var limit = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        guard setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw SystemError("setsockopt SO_SNDTIMEO")
        }
    }

    /// Sends on a socket as much as the kernel takes now; `.bytes(n)` may be short. MSG_NOSIGNAL: a peer that has
    /// gone is EPIPE, not a SIGPIPE that ends the process.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> IOResult {
        guard bytes.count > 0 else { return .bytes(0) }
        let written = retryingInterrupts { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
        if written >= 0 { return .bytes(written) }
        if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        throw SystemError("send")
    }

    /// Sends every byte on a socket. MSG_NOSIGNAL: a peer that has gone is EPIPE, not a SIGPIPE that ends the
    /// process. A send timeout (`setSendTimeout`) ends a call short with what the peer took, and the next call
    /// then fails with EAGAIN (`SystemError.isWouldBlock`).
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemError) in
                try writeAll(raw, call: "send") { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }.get()
    }

    /// What `accept` gave: a connection, nothing pending, or a shortage of descriptors or memory (the
    /// connection stays in the backlog, so the caller should stop accepting for a moment rather than spin).
    public enum Accepted: Equatable, Sendable {
        case connection(Int32)
        case nonePending
        case exhausted(SystemError)
    }

    /// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC; EINTR is retried.
    public static func accept(_ listener: Int32, path: String) throws(SystemError) -> Accepted {
        let fd = retryingInterrupts { touchd_accept(listener) }
        if fd >= 0 { return .connection(fd) }
        switch errno {
        case EAGAIN, EWOULDBLOCK: return .nonePending
        case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted(SystemError("accept", subject: path))
        default: throw SystemError("accept", subject: path)
        }
    }

    /// What the kernel recorded of a Unix socket's peer at connect: pid, uid and primary gid (SO_PEERCRED) and its
    /// supplementary groups (SO_PEERGROUPS). Not /proc/PID/status: under the shipped unit's `ProtectProc=invisible`
    /// the daemon cannot see other users' processes there. Nil when either call fails (the peer is gone).
    public struct Peer: Equatable, Sendable {
        public var pid: Int32
        public var uid: UInt32
        public var gid: UInt32
        /// The primary group too.
        public var groups: Set<UInt32>
    }

    public static func peer(ofSocket fd: Int32) -> Peer? {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        guard touchd_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        var groups: Set<UInt32> = [gid]
        guard let supplementary = supplementaryGroups(ofSocket: fd) else { return nil }
        groups.formUnion(supplementary)
        return Peer(pid: pid, uid: uid, gid: gid, groups: groups)
    }

    /// SO_PEERGROUPS, growing the buffer when the peer has more groups than it holds (ERANGE says how many).
    static func supplementaryGroups(ofSocket fd: Int32) -> [UInt32]? {
        var capacity: Int32 = 64
        while true {
            var buffer = [UInt32](repeating: 0, count: Int(capacity))
            var needed: Int32 = 0
            let count = touchd_peer_groups(fd, &buffer, capacity, &needed)
            if count >= 0 { return Array(buffer[0..<Int(count)]) }
            guard errno == ERANGE, needed > capacity else { return nil }
            capacity = needed
        }
    }
}
