import TouchJSON

/// A line from touchd, typed. Unknown types and keys are kept as the raw JSON, so newer daemons do not break
/// older clients.
public enum Message: Sendable {
    case hello(Hello)
    case reply(Reply)
    case touch(Touch)
    case gesture(Gesture)
    case frame(device: String, timeMicroseconds: Int64)
    case regionMoved(region: String, frame: [Double])
    case deviceAdded(device: String, name: String)
    case deviceRemoved(device: String)
    case sceneChanged(version: Int, source: String)
    case goodbye(code: String, message: String)
    case other(JSONValue)

    public struct Hello: Sendable {
        public var protocolVersion: Int
        public var server: String
        public var devices: [String]
        public var mayChangeScene: Bool
        public var json: JSONValue
    }

    public struct Reply: Sendable {
        public var id: Int?
        public var ok: Bool
        public var errorCode: String?
        public var errorMessage: String?
        public var json: JSONValue
    }

    public struct Touch: Sendable {
        public var phase: String
        public var device: String
        public var finger: Int
        public var region: String?
        public var x: Double
        public var y: Double
        /// Region coordinates; nil when the line leaves them out (a subscription's `fields` did not select them).
        public var localX: Double?
        public var localY: Double?
        public var taps: Int
        public var timeMicroseconds: Int64
        public var json: JSONValue
    }

    public struct Gesture: Sendable {
        public var region: String
        public var name: String
        public var kind: String
        public var state: String
        public var x: Double
        public var y: Double
        public var json: JSONValue
    }

    /// Types one parsed line from touchd.
    public static func decode(_ value: JSONValue) -> Message {
        func string(_ key: String) -> String? { if case .string(let text, _)? = value[key] { text } else { nil } }
        func number(_ key: String) -> Double? { if case .number(let n, _)? = value[key] { n } else { nil } }
        func bool(_ key: String) -> Bool? { if case .bool(let b, _)? = value[key] { b } else { nil } }
        switch string("type") {
        case "hello":
            var devices: [String] = []
            if case .array(let items, _)? = value["devices"] {
                for item in items { if case .string(let key, _)? = item["device"] { devices.append(key) } }
            }
            let mayChange: Bool = { if case .bool(let b, _)? = value["permissions"]?["scene"] { b } else { false } }()
            return .hello(
                Hello(
                    protocolVersion: Int(number("protocol") ?? 0), server: string("server") ?? "",
                    devices: devices, mayChangeScene: mayChange, json: value))
        case "reply":
            return .reply(
                Reply(
                    id: number("id").map { Int($0) }, ok: bool("ok") ?? false,
                    errorCode: { if case .string(let c, _)? = value["error"]?["code"] { c } else { nil } }(),
                    errorMessage: { if case .string(let m, _)? = value["error"]?["message"] { m } else { nil } }(),
                    json: value))
        case "down", "move", "up", "cancel":
            return .touch(
                Touch(
                    phase: string("type")!, device: string("device") ?? "", finger: Int(number("finger") ?? 0),
                    region: string("region"), x: number("x") ?? 0, y: number("y") ?? 0,
                    localX: number("local_x"), localY: number("local_y"), taps: Int(number("taps") ?? 1),
                    timeMicroseconds: Int64(number("time_us") ?? 0), json: value))
        case "gesture":
            return .gesture(
                Gesture(
                    region: string("region") ?? "", name: string("gesture") ?? "", kind: string("kind") ?? "",
                    state: string("state") ?? "", x: number("x") ?? 0, y: number("y") ?? 0, json: value))
        case "frame":
            return .frame(device: string("device") ?? "", timeMicroseconds: Int64(number("time_us") ?? 0))
        case "region-moved":
            return .regionMoved(region: string("region") ?? "", frame: value["frame"]?.numbers ?? [])
        case "device-added":
            return .deviceAdded(
                device: { if case .string(let d, _)? = value["device"]?["device"] { d } else { "" } }(),
                name: { if case .string(let n, _)? = value["device"]?["name"] { n } else { "" } }())
        case "device-removed":
            return .deviceRemoved(device: string("device") ?? "")
        case "scene-changed":
            return .sceneChanged(
                version: { if case .number(let v, _)? = value["scene"]?["version"] { Int(v) } else { 0 } }(),
                source: string("source") ?? "")
        case "goodbye":
            return .goodbye(code: string("code") ?? "", message: string("message") ?? "")
        default:
            return .other(value)
        }
    }
}
