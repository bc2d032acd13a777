import CShims
import Glibc

/// Who is on the other end of a Unix socket: pid, uid and primary gid (SO_PEERCRED) and the supplementary groups
/// (SO_PEERGROUPS), all from the kernel as of connect. Not /proc/PID/status: under the shipped unit's
/// `ProtectProc=invisible` the daemon cannot see other users' processes there.
public struct PeerCredentials: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public var groups: Set<UInt32>

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: Set<UInt32>) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    public static func of(socket fd: Int32) -> PeerCredentials? {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        guard touchd_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        var groups: Set<UInt32> = [gid]
        guard let supplementary = supplementaryGroups(of: fd) else { return nil }
        groups.formUnion(supplementary)
        return PeerCredentials(pid: pid, uid: uid, gid: gid, groups: groups)
    }

    /// SO_PEERGROUPS, growing the buffer when the peer has more groups than it holds (ERANGE says how many).
    static func supplementaryGroups(of fd: Int32) -> [UInt32]? {
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

    /// Whether the peer is root or in one of the groups (given by id).
    public func isRootOrMember(of groupIDs: Set<UInt32>) -> Bool {
        uid == 0 || !groups.isDisjoint(with: groupIDs)
    }
}

/// What a client may do.
public struct Permissions: Equatable, Sendable {
    public var subscribe: Bool
    public var changeScene: Bool

    public init(subscribe: Bool, changeScene: Bool) {
        self.subscribe = subscribe
        self.changeScene = changeScene
    }
}
