import TouchCore

/// Builds evdev event streams by hand for tests (a class, so calls chain), a frame at a time, with times that advance per frame.
///
///     var script = EventScript()
///     script.slot(0).trackingID(45).position(x: 100, y: 200).report()
public final class EventScript {
    public private(set) var events: [InputEvent] = []
    public var time: EventTime
    /// Time between frames.
    public var frameInterval: EventTime.Duration

    public init(
        start: EventTime = EventTime(microseconds: 1_000_000), frameInterval: EventTime.Duration = .milliseconds(10)
    ) {
        time = start
        self.frameInterval = frameInterval
    }

    @discardableResult
    public func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> EventScript {
        events.append(InputEvent(time: time, type: type, code: code, value: value))
        return self
    }

    @discardableResult
    public func abs(_ code: UInt16, _ value: Int32) -> EventScript { event(EventType.abs, code, value) }

    @discardableResult
    public func slot(_ slot: Int32) -> EventScript { abs(AbsCode.mtSlot, slot) }

    @discardableResult
    public func trackingID(_ id: Int32) -> EventScript { abs(AbsCode.mtTrackingID, id) }

    @discardableResult
    public func position(x: Int32, y: Int32) -> EventScript {
        abs(AbsCode.mtPositionX, x)
        return abs(AbsCode.mtPositionY, y)
    }

    @discardableResult
    public func tool(_ type: Int32) -> EventScript { abs(AbsCode.mtToolType, type) }

    @discardableResult
    public func key(_ code: UInt16, _ value: Int32) -> EventScript { event(EventType.key, code, value) }

    /// `SYN_MT_REPORT`
    @discardableResult
    public func contactReport() -> EventScript { event(EventType.syn, SynCode.mtReport, 0) }

    /// `SYN_DROPPED`
    @discardableResult
    public func dropped() -> EventScript { event(EventType.syn, SynCode.dropped, 0) }

    /// `SYN_REPORT`, then the clock moves on by `frameInterval`.
    @discardableResult
    public func report() -> EventScript {
        event(EventType.syn, SynCode.report, 0)
        time = time + frameInterval
        return self
    }
}

/// Devices for hand-written streams, declared like libinput's litest devices.
public enum TestDevices {
    /// A protocol B touchscreen: 10 slots, 0...4095 on both axes, pressure, tool type, INPUT_PROP_DIRECT.
    public static let touchscreen = DeviceDescription(
        name: "touchd test touchscreen", id: DeviceID(bustype: 0x03, vendor: 0x1234, product: 0x5678, version: 1),
        properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255),
            AbsCode.mtToolType: AbsInfo(minimum: 0, maximum: 2),
        ])

    /// A protocol A touchscreen (no slots), 0...9600 x 0...7200 like the N-Trig.
    public static let contactReporter = DeviceDescription(
        name: "touchd test protocol A", properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 9600),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 7200),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtToolType: AbsInfo(minimum: 0, maximum: 2),
        ])

    /// A single-touch resistive screen: ABS_X/ABS_Y/ABS_PRESSURE and BTN_TOUCH only.
    public static let singleTouch = DeviceDescription(
        name: "touchd test single touch", properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1023),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 1023),
            AbsCode.pressure: AbsInfo(minimum: 0, maximum: 255),
        ])
}

/// Runs a whole stream through a fresh decoder.
public func decodeAll(_ events: [InputEvent], device: DeviceDescription) -> (
    outputs: [DecoderOutput], decoder: TouchDecoder
) {
    var decoder = TouchDecoder(description: device)
    var outputs: [DecoderOutput] = []
    for event in events { decoder.process(event, into: &outputs) }
    return (outputs, decoder)
}

/// A compact, comparable rendering of decoder output: `down 1 s0 (100,200)`, `frame`.
public func summarize(_ outputs: [DecoderOutput]) -> [String] {
    outputs.map { output in
        switch output {
        case .finger(let event):
            "\(event.phase.rawValue) \(event.finger) s\(event.slot) (\(event.contact.x),\(event.contact.y))"
        case .frameEnd:
            "frame"
        }
    }
}
