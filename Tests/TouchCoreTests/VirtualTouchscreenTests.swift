import Testing
import TouchCore
import TouchTestKit

/// The virtual touchscreen's description (what uinput is asked to create) and the forwarder's limits: tracking ids
/// wrap, slots run out, an empty frame is nothing.
@Suite("Virtual touchscreen: description and forwarder")
struct VirtualTouchscreenTests {
    static func finger(_ id: UInt32, _ phase: TouchPhase, x: Int32 = 10, y: Int32 = 20, at ms: Int64 = 0) -> FingerEvent
    {
        FingerEvent(
            phase: phase, finger: FingerID(id), slot: 0, time: EventTime(microseconds: ms * 1000),
            contact: ContactState(x: x, y: y))
    }

    @Test("protocol B: the real axes' ranges and resolution without fuzz, its slots, BTN_TOUCH, DIRECT, the suffix")
    func slotted() throws {
        var real = TestDevices.touchscreen
        real.absInfo[AbsCode.mtPositionX] = AbsInfo(minimum: 0, maximum: 4095, fuzz: 8, resolution: 16)
        real.absInfo[AbsCode.x] = AbsInfo(minimum: 0, maximum: 1023, fuzz: 4)  // a different range: not used
        real.properties = []
        let virtual = try #require(VirtualTouchscreen.description(for: real))
        #expect(virtual.name == "touchd test touchscreen (touchd)")
        #expect(virtual.id == real.id)
        #expect(virtual.properties == [InputProperty.direct])
        #expect(virtual.codes[EventType.key] == [KeyCode.touch])
        let position = AbsInfo(minimum: 0, maximum: 4095, resolution: 16)
        #expect(virtual.absInfo[AbsCode.mtPositionX] == position)
        #expect(virtual.absInfo[AbsCode.x] == position)
        #expect(virtual.absInfo[AbsCode.mtPositionY] == AbsInfo(minimum: 0, maximum: 4095, resolution: 16))
        #expect(virtual.absInfo[AbsCode.mtSlot] == AbsInfo(minimum: 0, maximum: 9))
        #expect(virtual.absInfo[AbsCode.mtTrackingID] == AbsInfo(minimum: 0, maximum: 65535))
        #expect(virtual.absInfo[AbsCode.mtPressure] == AbsInfo(minimum: 0, maximum: 255))
        #expect(virtual.absInfo[AbsCode.mtToolType] == AbsInfo(minimum: 0, maximum: 2))
        #expect(Set(virtual.absInfo.keys).count == 8)
        #expect(virtual.touchProtocol == .slotted && virtual.isDirect)
        #expect(VirtualTouchscreen.isVirtual(name: virtual.name) && !VirtualTouchscreen.isVirtual(name: real.name))
    }

    @Test("protocol A gets 10 slots; single touch one slot, its ABS_PRESSURE as ABS_MT_PRESSURE")
    func otherProtocols() throws {
        let a = try #require(VirtualTouchscreen.description(for: TestDevices.contactReporter))
        #expect(a.slotCount == 10)
        #expect(a.absInfo[AbsCode.mtPositionX]?.maximum == 9600 && a.absInfo[AbsCode.y]?.maximum == 7200)
        let single = try #require(VirtualTouchscreen.description(for: TestDevices.singleTouch))
        #expect(single.slotCount == 1 && single.touchProtocol == .slotted)
        #expect(single.absInfo[AbsCode.mtPositionX]?.maximum == 1023)
        #expect(single.absInfo[AbsCode.mtPressure] == AbsInfo(minimum: 0, maximum: 255))
        #expect(VirtualTouchscreen.description(for: DeviceDescription(name: "keyboard")) == nil)
    }

    @Test("a long name is cut at a character boundary so name and suffix fit the kernel's 79 bytes")
    func longName() throws {
        let real = DeviceDescription(name: String(repeating: "é", count: 60), absInfo: TestDevices.touchscreen.absInfo)
        let name = try #require(VirtualTouchscreen.description(for: real)).name
        #expect(name.utf8.count <= 79)
        // 79 - 9 bytes of suffix = 70 bytes: 35 two-byte characters.
        #expect(name == String(repeating: "é", count: 35) + " (touchd)")
    }

    @Test("tracking ids count up to 65535 and wrap to 0")
    func trackingIDsWrap() throws {
        let description = try #require(VirtualTouchscreen.description(for: TestDevices.touchscreen))
        var forwarder = TouchForwarder(description: description)
        var last: [InputEvent] = []
        for id in UInt32(1)...65_537 {
            forwarder.begin(Self.finger(id, .down))
            let frame = forwarder.endFrame(at: .zero)
            last = try #require(frame)
            forwarder.follow(Self.finger(id, .up))
            _ = forwarder.endFrame(at: .zero)
        }
        // Finger 65,537 is the 65,537th down: ids 0...65535, then 0 again.
        #expect(last.first == InputEvent(time: .zero, type: EventType.abs, code: AbsCode.mtTrackingID, value: 0))
        #expect(forwarder.liveFingerCount == 0)
    }

    @Test("no free slot: the finger is not forwarded, counted, and its later events are ignored")
    func slotsRunOut() throws {
        let description = try #require(VirtualTouchscreen.description(for: TestDevices.singleTouch))
        var forwarder = TouchForwarder(description: description)
        let first = forwarder.begin(Self.finger(1, .down))
        let second = forwarder.begin(Self.finger(2, .down, x: 99))
        #expect(first && !second)
        #expect(forwarder.unforwarded == 1)
        forwarder.follow(Self.finger(2, .move, x: 100))
        let ended = forwarder.endFrame(at: .zero)
        let frame = try #require(ended)
        #expect(!frame.contains { $0.value == 99 || $0.value == 100 })
        #expect(forwarder.isForwarding(FingerID(1)) && !forwarder.isForwarding(FingerID(2)))
    }

    @Test("a frame that changed nothing is nothing; liftAll with no finger down is nothing")
    func emptyFrames() throws {
        let description = try #require(VirtualTouchscreen.description(for: TestDevices.touchscreen))
        var forwarder = TouchForwarder(description: description)
        let nothing = forwarder.endFrame(at: .zero)
        let noLift = forwarder.liftAll(at: .zero)
        #expect(nothing == nil && noLift == nil)
        forwarder.follow(Self.finger(7, .move))  // never forwarded
        let unforwarded = forwarder.endFrame(at: .zero)
        #expect(unforwarded == nil)
        forwarder.begin(Self.finger(7, .down))
        _ = forwarder.endFrame(at: .zero)
        forwarder.follow(Self.finger(7, .move))  // same place: nothing changed
        let unchanged = forwarder.endFrame(at: .zero)
        #expect(unchanged == nil)
        let lifted = forwarder.liftAll(at: .zero)
        let lift = try #require(lifted)
        #expect(lift.map(\.value) == [-1, 0, 0])  // tracking id -1, BTN_TOUCH 0, SYN_REPORT
    }
}
