import TouchTransport

/// Who may connect, who may change the scene, and who may take the reserved connections: the configuration's group
/// names resolved once at start, then decided from each peer's kernel credentials alone.
struct ClientAccess: Equatable, Sendable {
    /// Empty: anyone who can open the socket may connect.
    var subscribeGroups: Set<UInt32>
    var restrictsSubscribers: Bool
    var sceneGroups: Set<UInt32>
    var maximum: Int
    var reserved: Int

    /// Resolves names with `lookup`; every name that names no group is reported (it grants nothing).
    static func resolve(_ config: Config, lookup: (String) -> UInt32?) -> (access: ClientAccess, warnings: [String]) {
        var warnings: [String] = []
        func ids(_ names: [String], _ key: String) -> Set<UInt32> {
            var result: Set<UInt32> = []
            for name in names {
                if let id = lookup(name) {
                    result.insert(id)
                } else {
                    warnings.append(
                        config.origin.error("clients.\(key)", "no group '\(name)' on this system; it grants nothing")
                            .description)
                }
            }
            return result
        }
        let access = ClientAccess(
            subscribeGroups: ids(config.clients.subscribeGroups, "subscribeGroups"),
            restrictsSubscribers: !config.clients.subscribeGroups.isEmpty,
            sceneGroups: ids(config.clients.sceneGroups, "sceneGroups"),
            maximum: config.clients.maximum, reserved: config.clients.reserved)
        return (access, warnings)
    }

    enum Admission: Equatable {
        case admit(Permissions)
        case refuse(code: String, message: String)
    }

    /// Whether a peer may have a connection while `connected` others are open.
    func admission(of peer: PeerCredentials, connected: Int) -> Admission {
        let mayChangeScene = peer.isRootOrMember(of: sceneGroups)
        if restrictsSubscribers && !peer.isRootOrMember(of: subscribeGroups) {
            return .refuse(
                code: "permission-denied", message: "uid \(peer.uid) is not in the groups allowed to connect")
        }
        let limit = mayChangeScene ? maximum : maximum - reserved
        guard connected < limit else {
            let which = mayChangeScene ? "" : " (\(reserved) more are kept for root and the scene groups)"
            return .refuse(code: "too-many-clients", message: "the limit of \(limit) clients is reached\(which)")
        }
        return .admit(Permissions(subscribe: true, changeScene: mayChangeScene))
    }
}
