import CShims
import FoundationEssentials
import Glibc

/// Who is on the other end of a Unix socket (SO_PEERCRED), with the supplementary groups from /proc, since
/// SO_PEERCRED carries only the primary group.
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
        if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Groups:") })
        {
            for field in line.dropFirst("Groups:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                if let group = UInt32(field) { groups.insert(group) }
            }
        }
        return PeerCredentials(pid: pid, uid: uid, gid: gid, groups: groups)
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
