import CShims
import Glibc

extension Posix {
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
