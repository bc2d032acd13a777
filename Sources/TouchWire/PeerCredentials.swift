/// Who is on the other end of a Unix socket: pid, uid, primary gid and every group, as the kernel reported them
/// at connect (`Posix.peerCredentials`, SO_PEERCRED and SO_PEERGROUPS).
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
