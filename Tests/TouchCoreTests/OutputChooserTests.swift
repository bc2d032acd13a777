import Testing
import TouchCore

/// Which monitor a touchscreen lies on. The monitors have the sizes of real ones (data sheets): a 14" laptop panel
/// 302 x 188 mm, a Dell P2418HT 23.8" touch monitor 527 x 296 mm, an LG 32" 697 x 392 mm.
@Suite("Choosing a touchscreen's monitor")
struct OutputChooserTests {
    static func monitor(_ name: String, _ width: Int, _ height: Int, connected: Bool = true, label: String? = nil)
        -> DisplayConnector
    {
        DisplayConnector(
            name: name, connected: connected,
            edid: EDID(manufacturer: "DEL", product: 1, name: label, widthMM: width, heightMM: height))
    }

    let laptop = monitor("eDP-1", 302, 188)
    let dell = monitor("DP-2", 527, 296)
    let lg = monitor("HDMI-A-1", 697, 392)

    static func touchscreen(_ width: Double?, _ height: Double?, builtIn: Bool = false, name: String = "Touch")
        -> TouchscreenFacts
    {
        TouchscreenFacts(name: name, widthMM: width, heightMM: height, builtIn: builtIn)
    }

    @Test("the monitor whose size matches wins over the built-in panel")
    func sizeMatch() {
        let choice = OutputChooser.choose(for: Self.touchscreen(527, 296), among: [laptop, dell, lg])
        #expect(choice.connector == "DP-2" && choice.rule == .size)
    }

    /// 5 % of 527 is 26.35 mm: 553 matches, 554 does not (and with three monitors nothing else decides).
    @Test("within 5 % in both directions, either way round")
    func tolerance() {
        #expect(OutputChooser.choose(for: Self.touchscreen(553, 296), among: [laptop, dell, lg]).connector == "DP-2")
        #expect(OutputChooser.choose(for: Self.touchscreen(554, 296), among: [laptop, dell, lg]).connector == nil)
        #expect(OutputChooser.choose(for: Self.touchscreen(527, 312), among: [laptop, dell, lg]).connector == nil)
        #expect(OutputChooser.choose(for: Self.touchscreen(296, 527), among: [laptop, dell, lg]).connector == "DP-2")
    }

    @Test("a disconnected monitor is never chosen")
    func disconnected() {
        let unplugged = Self.monitor("DP-2", 527, 296, connected: false)
        let choice = OutputChooser.choose(for: Self.touchscreen(527, 296), among: [laptop, unplugged, lg])
        #expect(choice.connector == nil && choice.rule == .none)
    }

    @Test("no size match: a built-in touchscreen takes the built-in panel, an external one does not")
    func builtIn() {
        let inside = OutputChooser.choose(for: Self.touchscreen(nil, nil, builtIn: true), among: [laptop, dell])
        #expect(inside.connector == "eDP-1" && inside.rule == .builtIn)
        let outside = OutputChooser.choose(for: Self.touchscreen(nil, nil), among: [laptop, dell])
        #expect(outside.connector == nil)
    }

    @Test("else the only connected monitor; else none, saying why")
    func onlyAndNone() {
        let only = OutputChooser.choose(
            for: Self.touchscreen(100, 100), among: [Self.monitor("DP-1", 697, 392, connected: false), dell])
        #expect(only.connector == "DP-2" && only.rule == .onlyConnected)
        let none = OutputChooser.choose(for: Self.touchscreen(100, 100), among: [dell, lg])
        #expect(none.connector == nil && none.explanation.contains("no monitor is 100x100 mm"))
        #expect(
            OutputChooser.choose(for: Self.touchscreen(527, 296), among: []).explanation.contains(
                "no monitor is connected"))
    }

    @Test("two monitors of the touchscreen's size: the one whose EDID name the touchscreen's name contains")
    func sameSize() {
        let a = Self.monitor("DP-1", 527, 296, label: "DELL P2418HT")
        let b = Self.monitor("DP-2", 527, 296, label: "DELL P2419H")
        let named = OutputChooser.choose(
            for: Self.touchscreen(527, 296, name: "Dell P2418HT Touchscreen"), among: [a, b])
        #expect(named.connector == "DP-1" && named.rule == .size)
        let unnamed = OutputChooser.choose(for: Self.touchscreen(527, 296, name: "eGalax"), among: [a, b])
        #expect(unnamed.connector == nil && unnamed.explanation.contains("DP-1, DP-2 are all 527x296 mm"))
    }

    @Test("a touchscreen's size is its range over its resolution; the bus says whether it is built in")
    func facts() {
        let usb = DeviceDescription(
            name: "eGalax", id: DeviceID(bustype: 0x03),
            absInfo: [
                AbsCode.x: AbsInfo(minimum: 0, maximum: 4216, resolution: 8),
                AbsCode.y: AbsInfo(minimum: 0, maximum: 2368, resolution: 8),
            ])
        let facts = TouchscreenFacts(usb)
        #expect(facts.widthMM == 527 && facts.heightMM == 296 && !facts.builtIn)
        let i2c = DeviceDescription(
            name: "ELAN", id: DeviceID(bustype: 0x18),
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 3000), AbsCode.y: AbsInfo(minimum: 0, maximum: 2000)])
        #expect(TouchscreenFacts(i2c) == Self.touchscreen(nil, nil, builtIn: true, name: "ELAN"))
    }
}
