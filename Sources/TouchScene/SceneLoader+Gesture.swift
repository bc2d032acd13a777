import TouchCore
import TouchGestures
import TouchJSON

/// Gestures in a scene: each type's parameters, and the relations a gesture may declare (docs/scene.md).
extension SceneLoader {
    /// The parameters each gesture type reads; any other key is an error naming the ones it takes.
    static let parameters: [GestureKind: [String]] = [
        .tap: ["taps", "fingers", "durationMs", "allowableMovement", "tapIntervalMs"],
        .longPress: ["fingers", "durationMs", "allowableMovement"],
        .longPressDrag: ["fingers", "durationMs", "allowableMovement"],
        .drag: ["fingers", "minimumDistance"],
        .swipe: ["fingers", "minimumDistance", "durationMs", "directions"],
        // A pinch begins once the distance between the fingers has changed by its allowable movement.
        .pinch: ["fingers", "allowableMovement"],
        .rotate: ["fingers"],
    ]
    /// Keys every gesture object may have.
    static let commonGestureKeys = ["type", "name", "requireToFail", "priority", "takeFingers"]

    static func decodeGesture(_ value: JSONValue, path: String) throws(JSONFieldError) -> GestureSpec {
        if case .string(let name, _) = value {
            guard let kind = GestureKind(rawValue: name) else { throw unknownGesture(name, value, path) }
            return GestureSpec(kind)
        }
        var reader = try JSONObjectReader(value, path: path)
        let typeName = try reader.requiredString("type")
        guard let kind = GestureKind(rawValue: typeName) else { throw unknownGesture(typeName, value, path + ".type") }
        try rejectForeignParameters(value, kind: kind, reader: reader)
        var spec = GestureSpec(kind, name: try reader.string("name"))
        if let taps = try reader.integer("taps", in: 1...10) { spec.taps = taps }
        if let fingers = try reader.integer("fingers", in: 1...10) { spec.fingers = fingers }
        if let duration = try reader.integer("durationMs", in: 0...60_000) {
            if kind == .longPress || kind == .longPressDrag {
                spec.minimumDuration = .milliseconds(Int64(duration))
            } else {
                spec.maximumDuration = .milliseconds(Int64(duration))
            }
        }
        if let movement = try reader.number("allowableMovement") {
            guard movement >= 0 else {
                throw reader.error("allowableMovement", "must not be negative, found \(NumberText.text(movement))")
            }
            spec.allowableMovement = movement
        }
        if let distance = try reader.number("minimumDistance") {
            guard distance >= 0 else {
                throw reader.error("minimumDistance", "must not be negative, found \(NumberText.text(distance))")
            }
            spec.minimumDistance = distance
        }
        if let interval = try reader.integer("tapIntervalMs", in: 1...10_000) {
            spec.tapInterval = .milliseconds(Int64(interval))
        }
        if let directions = try reader.array("directions") {
            var set: Set<SwipeDirection> = []
            for item in directions {
                guard case .string(let name, _) = item, let direction = SwipeDirection(rawValue: name) else {
                    throw JSONFieldError(
                        line: item.line, path: reader.childPath("directions"),
                        message: "expected left, right, up or down")
                }
                set.insert(direction)
            }
            spec.directions = set
        }
        if (kind == .pinch || kind == .rotate) && spec.fingers != 2 {
            throw reader.error("fingers", "\(kind.rawValue) always uses two fingers")
        }
        spec.requireToFail = try gestureReferences(&reader, "requireToFail")
        if let priority = try reader.string("priority") {
            guard priority == "high" || priority == "normal" else {
                throw reader.error("priority", "expected \"high\" or \"normal\", found '\(priority)'")
            }
            spec.highPriority = priority == "high"
        }
        if let taking = try reader.string("takeFingers") {
            guard let value = FingerTaking(rawValue: taking) else {
                throw reader.error(
                    "takeFingers", "expected \"recognized\", \"all-down\" or \"never\", found '\(taking)'")
            }
            spec.takesFingers = value
        }
        try reader.rejectUnknownKeys()
        return spec
    }

    /// A key that is a parameter of some other gesture type is named as such, with the ones this type takes.
    private static func rejectForeignParameters(_ value: JSONValue, kind: GestureKind, reader: JSONObjectReader)
        throws(JSONFieldError)
    {
        guard case .object(let members, _) = value else { return }
        let own = parameters[kind] ?? []
        let anyType = Set(parameters.values.joined())
        for member in members where anyType.contains(member.key) && !own.contains(member.key) {
            throw JSONFieldError(
                line: member.value.line, path: reader.childPath(member.key),
                message:
                    "'\(member.key)' is not a parameter of \(kind.rawValue) (it takes: \(own.joined(separator: ", ")))")
        }
    }

    /// `["name", "regionId/name", ...]`: each must be a non-empty string; whether it names a gesture is checked once
    /// the whole scene is read.
    private static func gestureReferences(_ reader: inout JSONObjectReader, _ key: String) throws(JSONFieldError)
        -> [String]
    {
        guard let items = try reader.array(key) else { return [] }
        var references: [String] = []
        for (index, item) in items.enumerated() {
            guard index < maximumGesturesPerRegion else {
                throw JSONFieldError(
                    line: item.line, path: reader.childPath(key) + "[\(index)]",
                    message: "one reference more than touchd's limit of \(maximumGesturesPerRegion) in a gesture")
            }
            guard case .string(let text, _) = item, !text.isEmpty, !text.hasSuffix("/") else {
                throw JSONFieldError(
                    line: item.line, path: reader.childPath(key),
                    message: "expected gesture names: \"name\" on this region or \"regionId/name\"")
            }
            references.append(text)
        }
        return references
    }
}
