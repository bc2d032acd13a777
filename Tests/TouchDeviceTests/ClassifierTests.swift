import Testing
import TouchCore
import TouchDevice

@Suite("Which devices are touchscreens")
struct ClassifierTests {
    static let touchscreen = DeviceDescription(
        name: "panel", properties: [InputProperty.direct], codes: [EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 100),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 100),
        ])
    static let touchpad = DeviceDescription(
        name: "pad", codes: [EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 100),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 100),
        ])
    static let resistive = DeviceDescription(
        name: "resistive", properties: [InputProperty.direct], codes: [EventType.key: [KeyCode.touch]],
        absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 1023), AbsCode.y: AbsInfo(minimum: 0, maximum: 1023)])
    static let keyboard = DeviceDescription(name: "keyboard", codes: [EventType.key: [30, 31, 32]])

    @Test("touchd's own virtual touchscreen is never used, not even when udev tags it or a rule pins it")
    func ownVirtualTouchscreen() throws {
        let virtual = try #require(VirtualTouchscreen.description(for: Self.touchscreen))
        #expect(virtual.name == "panel (touchd)")
        for pinned in [nil, true] as [Bool?] {
            #expect(
                TouchscreenClassifier.classify(virtual, udevProperties: ["ID_INPUT_TOUCHSCREEN": "1"], pinned: pinned)
                    == .no(reason: "touchd's own virtual touchscreen"))
        }
    }

    @Test("udev's tag wins; without it, touch axes and INPUT_PROP_DIRECT; the configuration pins or ignores")
    func verdicts() {
        #expect(
            TouchscreenClassifier.classify(Self.touchpad, udevProperties: ["ID_INPUT_TOUCHSCREEN": "1"], pinned: nil)
                == .udevProperty)
        #expect(TouchscreenClassifier.classify(Self.touchscreen, udevProperties: [:], pinned: nil) == .capabilities)
        #expect(TouchscreenClassifier.classify(Self.resistive, udevProperties: [:], pinned: nil) == .capabilities)
        #expect(!TouchscreenClassifier.classify(Self.touchpad, udevProperties: [:], pinned: nil).isTouchscreen)
        #expect(
            !TouchscreenClassifier.classify(Self.touchscreen, udevProperties: ["ID_INPUT_TOUCHPAD": "1"], pinned: nil)
                .isTouchscreen)
        #expect(TouchscreenClassifier.classify(Self.touchpad, udevProperties: [:], pinned: true) == .configPin)
        #expect(!TouchscreenClassifier.classify(Self.keyboard, udevProperties: [:], pinned: true).isTouchscreen)
        #expect(
            !TouchscreenClassifier.classify(
                Self.touchscreen, udevProperties: ["ID_INPUT_TOUCHSCREEN": "1"], pinned: false
            ).isTouchscreen)
        #expect(
            TouchscreenClassifier.classify(Self.keyboard, udevProperties: [:], pinned: nil)
                == .no(reason: "no touch axes (ABS_MT_POSITION_X/Y, or ABS_X/Y with BTN_TOUCH)"))
    }
}
