import FoundationEssentials
import Glibc
import Testing
import TouchCore
import TouchDevice

/// /sys/class/drm trees built in a temporary directory, in the kernel's layout: `card0` (the card),
/// `card0-<connector>` directories with `status` and `edid`, `renderD128`, `version`.
@Suite("DRM connectors from sysfs")
struct DRMConnectorsTests {
    static func tree(_ build: (String) throws -> Void) throws -> String {
        let root = FileManager.default.temporaryDirectory.path + "/drm-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: root + "/card0", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/renderD128", withIntermediateDirectories: true)
        try Data("drm 1.1.0 20060810\n".utf8).write(to: URL(fileURLWithPath: root + "/version"))
        try build(root)
        return root
    }

    static func connector(_ root: String, _ entry: String, status: String, edid: [UInt8]) throws {
        let directory = root + "/" + entry
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data((status + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/status"))
        try Data(edid).write(to: URL(fileURLWithPath: directory + "/edid"))
        try Data("Enabled\n".utf8).write(to: URL(fileURLWithPath: directory + "/enabled"))
    }

    /// A 23.8" Dell P2418HT's size (527 x 296 mm) in an EDID written byte by byte: header, PNP id DEL, product
    /// 0xA0C4, a 1920x1080 timing with the size in mm, checksum.
    static func dellEDID() -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 128)
        block[0..<8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        block[8] = 0x10  // D=4, E=5, L=12: 00100 00101 01100
        block[9] = 0xAC
        block[10] = 0xC4
        block[11] = 0xA0
        block[18] = 1
        block[19] = 4
        block[21] = 53
        block[22] = 30
        block[54..<66] = [0x02, 0x3A, 0x80, 0x18, 0x71, 0x38, 0x2D, 0x40, 0x58, 0x2C, 0x45, 0x00]
        block[66] = UInt8(527 & 0xFF)
        block[67] = UInt8(296 & 0xFF)
        block[68] = 0x21
        block[127] = UInt8((256 - block.reduce(0) { $0 + Int($1) } % 256) % 256)
        return block
    }

    @Test("connectors of two cards, connected or not, with their EDIDs; other entries ignored")
    func twoCards() throws {
        let root = try Self.tree { root in
            try Self.connector(root, "card0-eDP-1", status: "connected", edid: Self.dellEDID())
            try Self.connector(root, "card0-HDMI-A-1", status: "disconnected", edid: [])
            try Self.connector(root, "card1-DP-2", status: "connected", edid: Self.dellEDID())
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (connectors, problems) = DRMConnectors.read(root: root)
        #expect(problems.isEmpty)
        #expect(connectors.map(\.name) == ["HDMI-A-1", "eDP-1", "DP-2"])
        #expect(connectors.map(\.connected) == [false, true, true])
        #expect(connectors[0].edid == nil)
        let edid = try #require(connectors[1].edid)
        #expect(edid.manufacturer == "DEL" && edid.product == 0xA0C4 && edid.widthMM == 527 && edid.heightMM == 296)
    }

    @Test("an EDID file past 64 KiB is reported, not dropped in silence; the connector stays")
    func oversizedEDID() throws {
        let root = try Self.tree { root in
            try Self.connector(root, "card0-DP-1", status: "connected", edid: [UInt8](repeating: 0, count: 200_000))
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (connectors, problems) = DRMConnectors.read(root: root)
        #expect(connectors == [DisplayConnector(name: "DP-1", connected: true)])
        #expect(problems.count == 1 && problems[0].contains("card0-DP-1/edid"))
    }

    @Test("a broken EDID is reported and left out; the connector stays")
    func brokenEDID() throws {
        var broken = Self.dellEDID()
        broken[127] &+= 1
        let root = try Self.tree { root in
            try Self.connector(root, "card0-DP-1", status: "connected", edid: broken)
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (connectors, problems) = DRMConnectors.read(root: root)
        #expect(connectors == [DisplayConnector(name: "DP-1", connected: true)])
        #expect(
            problems.count == 1
                && problems[0].hasSuffix("card0-DP-1/edid: the EDID's base block does not sum to 0 modulo 256"))
    }

    @Test("the tree chooses: a touchscreen of the Dell's size lands on card1's DP-2, not the laptop's panel")
    func chooseFromTree() throws {
        var laptopPanel = Self.dellEDID()
        (laptopPanel[66], laptopPanel[67], laptopPanel[68]) = (UInt8(302 - 256), 188, 0x10)  // 302 x 188 mm
        laptopPanel[127] = 0
        laptopPanel[127] = UInt8((256 - laptopPanel.reduce(0) { $0 + Int($1) } % 256) % 256)
        let root = try Self.tree { root in
            try Self.connector(root, "card0-eDP-1", status: "connected", edid: laptopPanel)
            try Self.connector(root, "card1-DP-2", status: "connected", edid: Self.dellEDID())
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let connectors = DRMConnectors.read(root: root).connectors
        #expect(connectors.first { $0.name == "eDP-1" }?.edid?.widthMM == 302)
        let external = TouchscreenFacts(name: "eGalax", widthMM: 527, heightMM: 296, builtIn: false)
        #expect(OutputChooser.choose(for: external, among: connectors).connector == "DP-2")
        let builtIn = TouchscreenFacts(name: "ELAN", widthMM: nil, heightMM: nil, builtIn: true)
        #expect(OutputChooser.choose(for: builtIn, among: connectors).connector == "eDP-1")
    }

    @Test("no such directory: no connectors")
    func missing() {
        #expect(DRMConnectors.read(root: "/nonexistent/drm").connectors.isEmpty)
    }
}
