import TouchGestures
import TouchJSON
import TouchScene

/// Reads and validates an actions file (docs/actions.md) with the scene loader's JSON machinery, so its errors
/// read like a scene's: file, line, JSON path, problem. A file is accepted whole or refused whole.
public enum ActionsLoader {
    public static func parse(_ bytes: [UInt8], file: String) throws(ActionsFileError) -> ActionsFile {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ActionsFileError(
                file: file, line: error.line, path: "",
                message: "JSON syntax: \(error.message) (column \(error.column))")
        }
        do {
            return try decode(document)
        } catch {
            throw ActionsFileError(file: file, error)
        }
    }

    public static func parse(_ text: String, file: String) throws(ActionsFileError) -> ActionsFile {
        try parse(Array(text.utf8), file: file)
    }

    static func decode(_ document: JSONValue) throws(JSONFieldError) -> ActionsFile {
        var reader = try JSONObjectReader(document, path: "")
        if let version = try reader.integer("version", in: 1...1_000_000), version != ActionsFile.supportedVersion {
            throw reader.error(
                "version",
                "actions file version \(version) is not supported; this touchd-actions reads version \(ActionsFile.supportedVersion)"
            )
        }
        var file = ActionsFile()
        if let limits = reader.raw("commands") { file.limits = try decodeLimits(limits, path: "commands") }
        // Gesture names of each region of the file, for the rules' check.
        var gesturesByRegion: [String: [GestureSpec]] = [:]
        var ids: [String: String] = [:]
        for (index, item) in (try reader.array("regions") ?? []).enumerated() {
            let region = try SceneLoader.decodeRegion(item, path: "regions[\(index)]", ids: &ids)
            file.regions.append(ActionRegion(id: region.id, json: item))
            gesturesByRegion[region.id] = region.gestures
        }
        guard let rules = try reader.array("rules") else { throw reader.error(nil, "missing required key 'rules'") }
        guard !rules.isEmpty else { throw reader.error("rules", "no rules: give at least one") }
        for (index, item) in rules.enumerated() {
            let rule = try decodeRule(item, path: "rules[\(index)]", limits: file.limits)
            if let region = rule.region, let gestures = gesturesByRegion[region] {
                try checkRegionHasGesture(rule, gestures: gestures, node: item)
            }
            file.rules.append(rule)
        }
        try reader.rejectUnknownKeys()
        return file
    }

    static func decodeLimits(_ value: JSONValue, path: String) throws(JSONFieldError) -> CommandLimits {
        var reader = try JSONObjectReader(value, path: path)
        var limits = CommandLimits()
        if let running = try reader.integer("maxRunning", in: 1...64) { limits.maximumRunning = running }
        if let queued = try reader.integer("maxQueued", in: 0...1024) { limits.maximumQueued = queued }
        if let timeout = try duration(&reader, "timeoutMs", in: 0...maximumDuration) {
            limits.timeoutMilliseconds = timeout
        }
        if let grace = try duration(&reader, "killAfterMs", in: 1...60_000) { limits.killAfterMilliseconds = grace }
        try reader.rejectUnknownKeys()
        return limits
    }

    /// A day: a longer command is a service, not an action.
    static let maximumDuration = 86_400_000

    static func decodeRule(_ value: JSONValue, path: String, limits: CommandLimits) throws(JSONFieldError)
        -> ActionRule
    {
        var reader = try JSONObjectReader(value, path: path)
        let kindName = try reader.requiredString("gesture")
        guard let kind = GestureKind(rawValue: kindName) else {
            throw reader.error(
                "gesture",
                "unknown gesture '\(kindName)'; expected "
                    + GestureKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let command = try decodeCommand(&reader)
        var rule = ActionRule(
            path: path, line: value.line, kind: kind, command: command,
            timeoutMilliseconds: limits.timeoutMilliseconds)
        if let region = try reader.string("region") {
            guard !region.isEmpty else {
                throw reader.error("region", "must not be empty (leave it out for any region)")
            }
            rule.region = region
        }
        if let name = try reader.string("name") {
            guard !name.isEmpty else { throw reader.error("name", "must not be empty") }
            rule.name = name
        }
        if let stateName = try reader.string("state") {
            guard let state = GestureEventKind(rawValue: stateName) else {
                throw reader.error(
                    "state",
                    "unknown state '\(stateName)'; expected pressing, began, changed, ended, failed or cancelled")
            }
            rule.state = state
        }
        let states = reportedStates(kind)
        guard states.contains(rule.state) else {
            throw reader.error(
                "state",
                "a \(kind.rawValue) never reports '\(rule.state.rawValue)'; it reports "
                    + states.map(\.rawValue).joined(separator: ", "))
        }
        rule.fingers = try reader.integer("fingers", in: 1...10)
        if let direction = try reader.string("direction") {
            guard kind == .swipe else { throw reader.error("direction", "only a swipe has a direction") }
            guard let parsed = SwipeDirection(rawValue: direction) else {
                throw reader.error("direction", "unknown direction '\(direction)'; expected left, right, up or down")
            }
            rule.direction = parsed
        }
        if let taps = try reader.integer("taps", in: 1...10) {
            guard kind == .tap else { throw reader.error("taps", "only a tap counts taps") }
            rule.taps = taps
        }
        if let timeout = try duration(&reader, "timeoutMs", in: 0...maximumDuration) {
            rule.timeoutMilliseconds = timeout
        }
        rule.repeatMilliseconds = try duration(&reader, "repeatMs", in: 0...3_600_000)
        rule.debounceMilliseconds = try duration(&reader, "debounceMs", in: 1...3_600_000)
        for key in ["repeatMs", "debounceMs"] where reader.value[key] != nil && rule.state != .changed {
            throw reader.error(key, "applies to 'changed' events only (this rule's state is '\(rule.state.rawValue)')")
        }
        if rule.repeatMilliseconds != nil && rule.debounceMilliseconds != nil {
            throw reader.error("debounceMs", "give repeatMs or debounceMs, not both")
        }
        if rule.state == .changed && rule.repeatMilliseconds == nil && rule.debounceMilliseconds == nil {
            rule.repeatMilliseconds = defaultRepeatMilliseconds
        }
        try reader.rejectUnknownKeys()
        return rule
    }

    /// `changed` comes many times a second: without a rule of its own, a command runs at most this often.
    public static let defaultRepeatMilliseconds: Int64 = 100

    static func decodeCommand(_ reader: inout JSONObjectReader) throws(JSONFieldError) -> ActionCommand {
        let shell = try reader.bool("shell") ?? false
        guard let run = reader.raw("run") else { throw reader.error(nil, "missing required key 'run'") }
        let path = reader.childPath("run")
        if shell {
            guard case .string(let line, _) = run else {
                throw JSONFieldError(
                    line: run.line, path: path,
                    message: "with \"shell\": true, expected one string for /bin/sh -c, found \(run.kindName)")
            }
            guard line.contains(where: { !$0.isWhitespace }) else {
                throw JSONFieldError(line: run.line, path: path, message: "must not be empty")
            }
            guard !line.utf8.contains(0) else {
                throw JSONFieldError(line: run.line, path: path, message: "must not contain a NUL character")
            }
            return .shell(line)
        }
        guard case .array(let items, _) = run else {
            let hint = run.kindName == "string" ? " (or set \"shell\": true to run a line through /bin/sh)" : ""
            throw JSONFieldError(
                line: run.line, path: path,
                message: "expected the program and its arguments as an array of strings, found \(run.kindName)\(hint)")
        }
        guard !items.isEmpty else {
            throw JSONFieldError(line: run.line, path: path, message: "must not be empty: give the program to run")
        }
        var arguments: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let argument, _) = item else {
                throw JSONFieldError(
                    line: item.line, path: path + "[\(index)]", message: "expected a string, found \(item.kindName)")
            }
            guard !argument.utf8.contains(0) else {
                throw JSONFieldError(
                    line: item.line, path: path + "[\(index)]", message: "must not contain a NUL character")
            }
            arguments.append(argument)
        }
        guard !arguments[0].isEmpty else {
            throw JSONFieldError(line: items[0].line, path: path + "[0]", message: "the program must not be empty")
        }
        return .argv(arguments)
    }

    /// Milliseconds as a whole number in `range`.
    static func duration(_ reader: inout JSONObjectReader, _ key: String, in range: ClosedRange<Int>)
        throws(JSONFieldError) -> Int64?
    {
        guard let node = reader.raw(key) else { return nil }
        guard case .number(let number, _) = node else {
            throw reader.error(key, "expected milliseconds as a whole number, found \(node.kindName)")
        }
        guard number.rounded() == number, let value = Int(exactly: number), range.contains(value) else {
            throw reader.error(
                key, "expected whole milliseconds from \(range.lowerBound) to \(range.upperBound), found \(number)")
        }
        return Int64(value)
    }

    /// The states a kind of gesture reports (docs/protocol.md, "Gestures").
    static func reportedStates(_ kind: GestureKind) -> [GestureEventKind] {
        switch kind {
        case .tap, .swipe: [.ended]
        case .longPress, .longPressDrag: [.pressing, .began, .changed, .ended, .failed, .cancelled]
        case .drag, .pinch, .rotate: [.began, .changed, .ended, .cancelled]
        }
    }

    /// A rule on a region of this file must name a gesture that region has: otherwise it could never fire.
    static func checkRegionHasGesture(_ rule: ActionRule, gestures: [GestureSpec], node: JSONValue)
        throws(JSONFieldError)
    {
        let region = rule.region ?? ""
        let matches = gestures.contains { $0.kind == rule.kind && (rule.name == nil || $0.name == rule.name) }
        guard !matches else { return }
        let has = gestures.isEmpty ? "none" : gestures.map(\.name).joined(separator: ", ")
        let wanted = rule.name.map { "\(rule.kind.rawValue) named '\($0)'" } ?? "\(rule.kind.rawValue) gesture"
        throw JSONFieldError(
            line: node["gesture"]?.line ?? node.line, path: rule.path + ".gesture",
            message: "region '\(region)' of this file has no \(wanted) (its gestures: \(has))")
    }
}
