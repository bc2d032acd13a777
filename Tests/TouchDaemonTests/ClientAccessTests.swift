import Testing
import TouchEngine
import TouchWire

@testable import TouchDaemon

@Suite("Client access: groups resolved once, decisions from credentials alone")
struct ClientAccessTests {
    static func config(_ text: String) throws -> Config {
        try ConfigLoader.parse(Array(text.utf8), file: "touchd.json")
    }

    static let groups: [String: UInt32] = ["touchd": 990, "touchd-admin": 991]
    static func lookup(_ name: String) -> UInt32? { groups[name] ?? UInt32(name) }

    static func peer(uid: UInt32, gid: UInt32, groups: Set<UInt32> = []) -> PeerCredentials {
        PeerCredentials(pid: 1, uid: uid, gid: gid, groups: groups.union([gid]))
    }

    @Test("a group name that names no group is a warning with the file, line and key; known ones resolve")
    func unknownGroupsWarned() throws {
        let config = try Self.config(
            """
            {
              "clients": {
                "subscribeGroups": ["touchd", "tuochd"],
                "sceneGroups": ["touchd-admin", "4242", "nobody-here"]
              }
            }
            """)
        let (access, warnings) = ClientAccess.resolve(config, lookup: Self.lookup)
        #expect(access.subscribeGroups == [990])
        #expect(access.sceneGroups == [991, 4242])
        #expect(
            warnings == [
                "touchd.json:3: clients.subscribeGroups: no group 'tuochd' on this system; it grants nothing",
                "touchd.json:4: clients.sceneGroups: no group 'nobody-here' on this system; it grants nothing",
            ])
    }

    @Test("reserved connections: others stop at max - reserved, root and scene-group members at max")
    func reserved() throws {
        let config = try Self.config(#"{"clients": {"max": 5, "reserved": 2, "sceneGroups": ["touchd-admin"]}}"#)
        let access = ClientAccess.resolve(config, lookup: Self.lookup).access
        let reader = Self.peer(uid: 1000, gid: 1000, groups: [990])
        let admin = Self.peer(uid: 1001, gid: 1001, groups: [990, 991])  // by supplementary group
        let root = Self.peer(uid: 0, gid: 0)
        #expect(access.admission(of: reader, connected: 2) == .admit(Permissions(subscribe: true, changeScene: false)))
        #expect(
            access.admission(of: reader, connected: 3)
                == .refuse(
                    code: "too-many-clients",
                    message: "the limit of 3 clients is reached (2 more are kept for root and the scene groups)"))
        #expect(access.admission(of: admin, connected: 4) == .admit(Permissions(subscribe: true, changeScene: true)))
        #expect(access.admission(of: root, connected: 4) == .admit(Permissions(subscribe: true, changeScene: true)))
        #expect(
            access.admission(of: root, connected: 5)
                == .refuse(code: "too-many-clients", message: "the limit of 5 clients is reached"))
    }

    @Test("subscribeGroups keeps out peers in none of them, by primary or supplementary group")
    func subscribeGroups() throws {
        let config = try Self.config(#"{"clients": {"subscribeGroups": ["touchd"]}}"#)
        let access = ClientAccess.resolve(config, lookup: Self.lookup).access
        let reader = ClientAccess.Admission.admit(Permissions(subscribe: true, changeScene: false))
        #expect(access.admission(of: Self.peer(uid: 1000, gid: 990), connected: 0) == reader)
        #expect(access.admission(of: Self.peer(uid: 1000, gid: 100, groups: [990]), connected: 0) == reader)
        #expect(
            access.admission(of: Self.peer(uid: 1000, gid: 100, groups: [27]), connected: 0)
                == .refuse(code: "permission-denied", message: "uid 1000 is not in the groups allowed to connect"))
    }

    @Test("reserved must be smaller than max")
    func reservedBound() {
        #expect(throws: ConfigError.self) { try Self.config(#"{"clients": {"max": 4, "reserved": 4}}"#) }
    }
}
