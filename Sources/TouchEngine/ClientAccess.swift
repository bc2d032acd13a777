import TouchWire

/// Who may connect, who may change the scene, and who may take the reserved connections: the configuration's group
/// names resolved once at start, then decided from each peer's kernel credentials alone.
public struct ClientAccess: Equatable, Sendable {
    /// Empty: anyone who can open the socket may connect.
    public var subscribeGroups: Set<UInt32>
    public var restrictsSubscribers: Bool
    public var sceneGroups: Set<UInt32>
    public var maximum: Int
    public var reserved: Int

    public init(
        subscribeGroups: Set<UInt32>, restrictsSubscribers: Bool, sceneGroups: Set<UInt32>, maximum: Int, reserved: Int
    ) {
        self.subscribeGroups = subscribeGroups
        self.restrictsSubscribers = restrictsSubscribers
        self.sceneGroups = sceneGroups
        self.maximum = maximum
        self.reserved = reserved
    }

    public enum Admission: Equatable {
        case admit(Permissions)
        case refuse(code: String, message: String)
    }

    /// Whether a peer may have a connection while `connected` others are open.
    public func admission(of peer: PeerCredentials, connected: Int) -> Admission {
        let mayChangeScene = peer.isRootOrMember(of: sceneGroups)
        if restrictsSubscribers && !peer.isRootOrMember(of: subscribeGroups) {
            return .refuse(
                code: "permission-denied", message: "uid \(peer.uid) is not in the groups allowed to connect")
        }
        let limit = mayChangeScene ? maximum : maximum - reserved
        guard connected < limit else {
            let which =
                mayChangeScene || reserved == 0 ? "" : " (\(reserved) more are kept for root and the scene groups)"
            return .refuse(code: "too-many-clients", message: "the limit of \(limit) clients is reached\(which)")
        }
        return .admit(Permissions(subscribe: true, changeScene: mayChangeScene))
    }
}
