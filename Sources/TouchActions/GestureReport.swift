import TouchJSON

/// A `gesture` event from touchd's socket (docs/protocol.md, "Gestures"), as a rule matches it and a command sees
/// it: the fields rules test, and every detail as an environment variable (docs/actions.md has the list).
public struct GestureReport: Sendable, Equatable {
    public var region: String
    /// The gesture's name in its region.
    public var name: String
    public var kind: String
    public var state: String
    /// Event time in microseconds (the device's clock): repeat and debounce are decided on it.
    public var time: Int64
    public var fingers: Int?
    public var taps: Int?
    public var direction: String?
    /// `TOUCHD_…` variables in a fixed order.
    public var environment: [(name: String, value: String)]

    public static func == (lhs: GestureReport, rhs: GestureReport) -> Bool {
        lhs.region == rhs.region && lhs.name == rhs.name && lhs.kind == rhs.kind && lhs.state == rhs.state
            && lhs.time == rhs.time && lhs.fingers == rhs.fingers && lhs.taps == rhs.taps
            && lhs.direction == rhs.direction && lhs.environment.elementsEqual(rhs.environment, by: ==)
    }

    /// The event's keys that become variables, and their names: `TOUCHD_` and the key in capitals.
    public static let variableKeys = [
        "region", "gesture", "kind", "state", "time_us", "x", "y", "fingers", "taps", "direction", "dx", "dy", "vx",
        "vy", "scale", "rotation",
    ]

    /// Reads a gesture event; nil for any other line, or one without the keys every gesture event has.
    public init?(_ value: JSONValue) {
        guard case .string("gesture", _)? = value["type"],
            case .string(let region, _)? = value["region"], case .string(let name, _)? = value["gesture"],
            case .string(let kind, _)? = value["kind"], case .string(let state, _)? = value["state"],
            case .number(let time, _)? = value["time_us"], let microseconds = Int64(exactly: time)
        else { return nil }
        self.region = region
        self.name = name
        self.kind = kind
        self.state = state
        self.time = microseconds
        if case .number(let fingers, _)? = value["fingers"] { self.fingers = Int(exactly: fingers) }
        if case .number(let taps, _)? = value["taps"] { self.taps = Int(exactly: taps) }
        if case .string(let direction, _)? = value["direction"] { self.direction = direction }
        environment = []
        for key in Self.variableKeys {
            let text: String
            switch value[key] {
            case .string(let string, _)?: text = string
            case .number(let number, _)?: text = Self.format(number)
            default: continue
            }
            environment.append(("TOUCHD_" + key.uppercased(), text))
        }
    }

    /// Whole numbers without a fraction (`890`, not `890.0`), others as the shortest text that reads back the same.
    static func format(_ number: Double) -> String {
        if number.rounded() == number, let whole = Int64(exactly: number) { return String(whole) }
        return "\(number)"
    }

    /// The same gesture (region and name): what repeat and debounce state is kept for.
    var gestureKey: String { region + "\u{0}" + name }
}
