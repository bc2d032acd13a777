/// One evdev event: what the kernel hands out as `struct input_event`, with its time already in microseconds.
public struct InputEvent: Equatable, Hashable, Sendable {
    public var time: EventTime
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: EventTime, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    public var isSynReport: Bool { type == EventType.syn && code == SynCode.report }
}
