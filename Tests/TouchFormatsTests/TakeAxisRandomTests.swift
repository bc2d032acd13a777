import Testing
import TouchCore
import TouchTestKit

/// `TouchDecoder.takeAxis` against `process(_:into:)` alone on hostile random streams: slots in and out of range
/// (the 64th, the 65th, -1, Int32's ends), tracking ids reused, replaced and lifted twice, every ABS code, drops,
/// protocol A reports, BTN_TOUCH, times that go back, repeat and sit at Int64's end; with the stuck-touch rules
/// and a palm size on, the engine's order kept (touches past a limit cancelled before the event that passes it).
@Suite("Decoder: the axis path agrees with the full path on hostile streams")
struct TakeAxisRandomTests {
    /// A protocol B panel with `ABS_MT_SLOT` up to 99 (64 slots: the decoder's most), touch size for palms.
    static let wideTouchscreen = DeviceDescription(
        name: "touchd test 64 slots", properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 99),
            AbsCode.mtTouchMajor: AbsInfo(minimum: 0, maximum: 255),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtToolType: AbsInfo(minimum: 0, maximum: 2),
        ])

    static func stream(seed: UInt64, count: Int) -> [InputEvent] {
        var random = SeededRandom(seed: seed)
        var time: Int64 = random.pick([0, 1_000_000, 9_000_000_000_000_000, Int64.max - 10_000_000])
        var events: [InputEvent] = []
        for _ in 0..<count {
            switch random.below(20) {
            case 0..<14: time &+= Int64(random.pick([0, 0, 1, 1_000, 8_000, 16_000, 300_000, 6_000_000]))
            case 14..<18: time &-= Int64(random.pick([1, 1_000, 8_000]))
            case 18: time = random.pick([Int64.max, Int64.max - 1, 0, 1])
            default: break
            }
            if time < 0 { time = Int64.max }
            let (type, code, value): (UInt16, UInt16, Int32)
            switch random.below(100) {
            case 0..<18: (type, code, value) = (EventType.syn, SynCode.report, 0)
            case 18: (type, code, value) = (EventType.syn, SynCode.dropped, 0)
            case 19: (type, code, value) = (EventType.syn, SynCode.mtReport, 0)
            case 20..<23: (type, code, value) = (EventType.key, KeyCode.touch, Int32(random.below(2)))
            case 23..<31:
                let slot = random.pick([0, 1, 2, 9, 10, 63, 64, 99, 100, -1, Int(Int32.max), Int(Int32.min)])
                (type, code, value) = (EventType.abs, AbsCode.mtSlot, Int32(slot))
            case 31..<40:
                (type, code, value) = (EventType.abs, AbsCode.mtTrackingID, random.pick([-1, -1, 0, 1, 2, 3, 65535]))
            default:
                let axis = UInt16(
                    random.pick([0x35, 0x36, 0x35, 0x36, 0x30, 0x31, 0x32, 0x34, 0x37, 0x38, 0x3A, 0x00, 0x01, 0x18]))
                let axisValue = random.pick([Int32(random.below(4096)), 0, -1, 2, 200, Int32.max, Int32.min])
                (type, code, value) = (EventType.abs, axis, axisValue)
            }
            events.append(InputEvent(time: EventTime(microseconds: time), type: type, code: code, value: value))
        }
        return events
    }

    /// Decodes `events` both ways, as the engine does (stuck touches cancelled first when due); false at the first
    /// difference.
    static func decodeAlike(_ events: [InputEvent], on device: DeviceDescription, options: TouchDecoder.Options)
        -> (alike: Bool, taken: Int)
    {
        var full = TouchDecoder(description: device, options: options)
        var fast = full
        var fullOutputs: [DecoderOutput] = []
        var fastOutputs: [DecoderOutput] = []
        var taken = 0
        for event in events {
            if let due = full.stuckDeadline(), due <= event.time {
                _ = full.cancelStuckTouches(at: event.time, into: &fullOutputs)
            }
            if let due = fast.stuckDeadline(), due <= event.time {
                _ = fast.cancelStuckTouches(at: event.time, into: &fastOutputs)
            }
            full.process(event, into: &fullOutputs)
            if fast.takeAxis(event) {
                taken += 1
            } else {
                fast.process(event, into: &fastOutputs)
            }
            guard fast.latestTime == full.latestTime, fast.diagnostics == full.diagnostics,
                fast.liveFingerCount == full.liveFingerCount, fast.needsResync == full.needsResync,
                fastOutputs == fullOutputs
            else { return (false, taken) }
        }
        return (true, taken)
    }

    @Test(
        "random hostile streams decode alike both ways, with and without the stuck-touch rules and a palm size",
        arguments: [
            TestDevices.touchscreen, Self.wideTouchscreen, TestDevices.contactReporter, TestDevices.singleTouch,
        ])
    func hostileStreams(device: DeviceDescription) {
        var rules = TouchDecoder.Options()
        rules.stuckTouches = StuckTouchPolicy(silentLimit: .milliseconds(200), motionlessLimit: .milliseconds(100))
        rules.palmMajor = 100
        var taken = 0
        for seed in UInt64(1)...150 {
            let events = Self.stream(seed: seed, count: 600)
            for options in [TouchDecoder.Options(), rules] {
                let result = Self.decodeAlike(events, on: device, options: options)
                #expect(result.alike, "\(device.name), seed \(seed), rules \(options.palmMajor != nil)")
                taken += result.taken
            }
        }
        // Only protocol B takes the axis path; there it must take events, or this compared the full path with
        // itself.
        if device.touchProtocol == .slotted { #expect(taken > 10_000) } else { #expect(taken == 0) }
    }
}
