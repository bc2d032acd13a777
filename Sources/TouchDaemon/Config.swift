import FoundationEssentials
import TouchCore
import TouchJSON
import TouchPosix

/// touchd's configuration (config/touchd.json, docs/configuration.md). Every field has a default, so an empty
/// object is a valid configuration; unknown keys are errors.
public struct Config: Equatable, Sendable {
    public struct Socket: Equatable, Sendable {
        public var path = "/run/touchd/touchd.sock"
        /// File mode of the socket (octal in the file, e.g. "0660").
        public var mode: UInt32 = 0o660
        /// Group owning the socket file; nil keeps the daemon's group.
        public var group: String?
    }

    public struct Clients: Equatable, Sendable {
        /// Connections at once, the reserved ones included.
        public var maximum = 32
        /// Of `maximum`, how many only root and members of `sceneGroups` may take, so that idle connections of
        /// others cannot lock the administrator out.
        public var reserved = 4
        /// A connection that has neither subscribed nor sent a request this long after connecting is closed, and so
        /// is one whose replies have waited this long without it reading any (docs/protocol.md).
        public var idleTimeoutSeconds = 30
        /// Longest request line (a whole scene fits easily).
        public var maximumLineBytes = 1 << 20
        /// Per-client queue before coalescing, then disconnection.
        public var queueBytes = 1 << 20
        /// Groups whose members may subscribe; empty: anyone who can open the socket.
        public var subscribeGroups: [String] = []
        /// Groups whose members may change the scene (root always may).
        public var sceneGroups: [String] = []
    }

    /// Which devices a rule applies to; every given field must match.
    public struct DeviceMatch: Equatable, Sendable {
        public var name: String?
        public var node: String?
        public var vendor: UInt16?
        public var product: UInt16?

        public init() {}

        public func matches(name: String, node: String, vendor: UInt16, product: UInt16) -> Bool {
            (self.name.map { $0 == name } ?? true) && (self.node.map { $0 == node } ?? true)
                && (self.vendor.map { $0 == vendor } ?? true) && (self.product.map { $0 == product } ?? true)
        }
    }

    public struct DeviceRule: Equatable, Sendable {
        public var match = DeviceMatch()
        /// Treat the device as a touchscreen even without udev's tag (a pin), or never (`ignore`).
        public var use: Bool?
        public var rotation: Int?
        public var invertX: Bool?
        public var invertY: Bool?
        public var calibration: CalibrationMatrix?
        public var grab: Bool?
        /// Grab the device and re-emit the fingers no region claims on a virtual touchscreen (/dev/uinput).
        public var forwardUnclaimed: Bool?
        /// The jitter filter for the device's finger positions (docs/decoding.md, "Jitter").
        public var filter: JitterFilter?
        /// Where its touches land in the scene (`mapTo`, `output`); nil: the whole scene.
        public var target: MappingTarget?
        /// Palm size threshold (`PalmSize`): millimetres where the major axis has a resolution, device units
        /// otherwise; a touch whose major axis passes it is cancelled as a palm. Nil: palms by tool only.
        public var palmSize: Double?
        /// `stuckTouches.silentSeconds` and `motionlessSeconds` (0: that rule off); nil: the default
        /// (`StuckTouchPolicy.standard`). `stuckTouchPolicy` is what they make.
        public var stuckSilentSeconds: Double?
        public var stuckMotionlessSeconds: Double?

        public init() {}
    }

    public var socket = Socket()
    /// The scene file; nil starts with an empty scene (every finger unassigned).
    public var scenePath: String?
    public var devices: [DeviceRule] = []
    /// Each monitor's rectangle of the scene, by DRM connector name (`output` in a device rule).
    public var outputs: [String: MappingRegion] = [:]
    /// Grab devices (EVIOCGRAB) unless a rule says otherwise.
    public var grab = false
    public var clients = Clients()
    public var dropUnassigned = false
    public var logLevel = "info"
    /// Where the configuration came from, for errors found after parsing (a socket group that does not exist).
    public var origin = Origin()

    /// The file and the line of each field that is checked against the system later.
    public struct Origin: Equatable, Sendable {
        public var file = "(built-in defaults)"
        /// Line of a field by its JSON path (`socket.group`, `clients.sceneGroups`).
        public var lines: [String: Int] = [:]

        public init() {}

        /// Where a configuration came from does not make it a different configuration.
        public static func == (lhs: Origin, rhs: Origin) -> Bool { true }

        public func error(_ path: String, _ message: String) -> ConfigError {
            ConfigError(file: file, line: lines[path] ?? 0, path: path, message: message)
        }
    }

    public init() {}

    /// The settings for one device: the last matching rule wins for each field.
    public func rules(name: String, node: String, vendor: UInt16, product: UInt16) -> DeviceRule {
        var merged = DeviceRule()
        for rule in devices where rule.match.matches(name: name, node: node, vendor: vendor, product: product) {
            merged.use = rule.use ?? merged.use
            merged.rotation = rule.rotation ?? merged.rotation
            merged.invertX = rule.invertX ?? merged.invertX
            merged.invertY = rule.invertY ?? merged.invertY
            merged.calibration = rule.calibration ?? merged.calibration
            merged.grab = rule.grab ?? merged.grab
            merged.forwardUnclaimed = rule.forwardUnclaimed ?? merged.forwardUnclaimed
            merged.filter = rule.filter ?? merged.filter
            merged.target = rule.target ?? merged.target
            merged.palmSize = rule.palmSize ?? merged.palmSize
            merged.stuckSilentSeconds = rule.stuckSilentSeconds ?? merged.stuckSilentSeconds
            merged.stuckMotionlessSeconds = rule.stuckMotionlessSeconds ?? merged.stuckMotionlessSeconds
        }
        return merged
    }
}

/// A configuration that cannot be used: `file:line: path: problem`.
public typealias ConfigError = JSONFileError

public enum ConfigLoader {
    /// `limit`: the file is read inside the daemon's loop (SIGHUP, `reload`), so only a regular file of at most
    /// that many bytes will do: a FIFO would block the loop until a writer came, and a huge file would hold it.
    public static func load(path: String, limit: Int? = nil) throws(ConfigError) -> Config {
        let bytes: [UInt8]
        do {
            if let limit {
                bytes = try FileReader.readRegularFile(path, limit: limit)
            } else {
                bytes = try FileReader.read(path)
            }
        } catch {
            throw ConfigError(file: path, line: 0, path: "", message: error.message)
        }
        return try parse(bytes, file: path)
    }

    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> Config {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ConfigError(
                file: file, line: error.line, path: "",
                message: "JSON syntax: \(error.message) (column \(error.column))")
        }
        do {
            return try decode(document, file: file)
        } catch {
            throw ConfigError(file: file, line: error.line, path: error.path, message: error.message)
        }
    }

    static func decode(_ document: JSONValue, file: String) throws(JSONFieldError) -> Config {
        var config = Config()
        config.origin.file = file
        var reader = try JSONObjectReader(document, path: "")
        if let socket = reader.raw("socket") {
            var fields = try JSONObjectReader(socket, path: "socket")
            if let path = try fields.string("path") {
                guard path.hasPrefix("/"), path.utf8.count < 108 else {
                    throw fields.error("path", "expected an absolute path shorter than 108 bytes (sun_path)")
                }
                config.socket.path = path
            }
            if let mode = try fields.string("mode") {
                guard let value = UInt32(mode, radix: 8), value <= 0o777 else {
                    throw fields.error("mode", "expected an octal file mode such as \"0660\"")
                }
                config.socket.mode = value
            }
            config.socket.group = try fields.string("group")
            if let group = fields.raw("group") { config.origin.lines["socket.group"] = group.line }
            try fields.rejectUnknownKeys()
        }
        config.scenePath = try reader.string("scene")
        config.grab = try reader.bool("grab") ?? false
        config.dropUnassigned = try reader.bool("dropUnassigned") ?? false
        if let level = try reader.string("logLevel") {
            guard ["emerg", "alert", "crit", "err", "error", "warning", "notice", "info", "debug"].contains(level)
            else {
                throw reader.error("logLevel", "expected one of err, warning, notice, info, debug")
            }
            config.logLevel = level
        }
        if let clients = reader.raw("clients") {
            var fields = try JSONObjectReader(clients, path: "clients")
            config.clients.maximum = try fields.integer("max", in: 1...10_000) ?? config.clients.maximum
            config.clients.reserved = try fields.integer("reserved", in: 0...10_000) ?? config.clients.reserved
            guard config.clients.reserved < config.clients.maximum else {
                throw fields.error(
                    fields.raw("reserved") != nil ? "reserved" : "max",
                    "reserved (\(config.clients.reserved)) must be smaller than max (\(config.clients.maximum))")
            }
            config.clients.idleTimeoutSeconds =
                try fields.integer("idleTimeoutSeconds", in: 1...86_400) ?? config.clients.idleTimeoutSeconds
            config.clients.maximumLineBytes =
                try fields.integer("maxLineBytes", in: 1024...(64 << 20)) ?? config.clients.maximumLineBytes
            config.clients.queueBytes =
                try fields.integer("queueBytes", in: 4096...(256 << 20)) ?? config.clients.queueBytes
            config.clients.subscribeGroups = try strings(&fields, "subscribeGroups")
            config.clients.sceneGroups = try strings(&fields, "sceneGroups")
            for key in ["subscribeGroups", "sceneGroups"] {
                if let value = fields.raw(key) { config.origin.lines["clients." + key] = value.line }
            }
            try fields.rejectUnknownKeys()
        }
        config.outputs = try outputs(&reader)
        for (index, item) in (try reader.array("devices") ?? []).enumerated() {
            config.devices.append(try deviceRule(item, path: "devices[\(index)]", outputs: config.outputs))
        }
        try reader.rejectUnknownKeys()
        return config
    }

    static func deviceRule(
        _ value: JSONValue, path: String, outputs: [String: MappingRegion] = [:]
    ) throws(JSONFieldError) -> Config.DeviceRule {
        var fields = try JSONObjectReader(value, path: path)
        var rule = Config.DeviceRule()
        if let match = fields.raw("match") {
            var matchFields = try JSONObjectReader(match, path: fields.childPath("match"))
            rule.match.name = try matchFields.string("name")
            rule.match.node = try matchFields.string("node")
            rule.match.vendor = try hex16(&matchFields, "vendor")
            rule.match.product = try hex16(&matchFields, "product")
            try matchFields.rejectUnknownKeys()
        }
        rule.use = try fields.bool("use")
        if let rotation = try fields.integer("rotate", in: 0...270) {
            guard [0, 90, 180, 270].contains(rotation) else {
                throw fields.error("rotate", "expected 0, 90, 180 or 270")
            }
            rule.rotation = rotation
        }
        rule.invertX = try fields.bool("invertX")
        rule.invertY = try fields.bool("invertY")
        if let matrix = fields.raw("calibration") {
            guard let numbers = matrix.numbers, numbers.count == 6 else {
                throw JSONFieldError(
                    line: matrix.line, path: fields.childPath("calibration"),
                    message: "expected six numbers [a, b, c, d, e, f]")
            }
            rule.calibration = CalibrationMatrix(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        }
        rule.grab = try fields.bool("grab")
        rule.forwardUnclaimed = try fields.bool("forwardUnclaimed")
        if let filter = fields.raw("filter") {
            rule.filter = try jitterFilter(filter, path: fields.childPath("filter"))
        }
        rule.target = try mappingTarget(&fields, outputs: outputs)
        rule.palmSize = try palmSize(&fields)
        if let stuck = fields.raw("stuckTouches") {
            var stuckFields = try JSONObjectReader(stuck, path: fields.childPath("stuckTouches"))
            rule.stuckSilentSeconds = try stuckLimit(&stuckFields, "silentSeconds")
            rule.stuckMotionlessSeconds = try stuckLimit(&stuckFields, "motionlessSeconds")
            try stuckFields.rejectUnknownKeys()
        }
        try fields.rejectUnknownKeys()
        return rule
    }

    /// `"filter": "fuzz"`, or an object with the filter's `type` and its parameters:
    /// `{"type": "one-euro", "minCutoff": 1, "beta": 0.05, "dCutoff": 1}`, `{"type": "fuzz", "fuzz": 12}`.
    static func jitterFilter(_ value: JSONValue, path: String) throws(JSONFieldError) -> JitterFilter {
        var fields: JSONObjectReader?
        let name: String
        if case .string(let text, _) = value {
            name = text
        } else {
            var object = try JSONObjectReader(value, path: path)
            name = try object.requiredString("type")
            fields = object
        }
        guard JitterFilter.names.contains(name) else {
            let error = JitterFilter.ParseError.unknownFilter(name).description
            throw fields?.error("type", error) ?? JSONFieldError(line: value.line, path: path, message: error)
        }
        guard var fields else { return try filter(name, [], at: value, path: path) }
        let allowed = JitterFilter.parameterNames(for: name)
        var parameters: [(name: String, value: Double)] = []
        for key in allowed {
            if let number = try fields.number(key) { parameters.append((key, number)) }
        }
        do {
            try fields.rejectUnknownKeys()
        } catch {
            throw JSONFieldError(
                line: error.line, path: error.path,
                message: error.message
                    + (allowed.isEmpty
                        ? " (the \(name) filter takes no parameters)"
                        : " (the \(name) filter takes \(allowed.joined(separator: ", ")))"))
        }
        do {
            return try JitterFilter.make(name: name, parameters: parameters)
        } catch {
            guard case .badValue(let parameter, let problem) = error else { throw fields.error(nil, error.description) }
            throw fields.error(parameter, problem)
        }
    }

    private static func filter(
        _ name: String, _ parameters: [(name: String, value: Double)], at value: JSONValue, path: String
    ) throws(JSONFieldError) -> JitterFilter {
        do {
            return try JitterFilter.make(name: name, parameters: parameters)
        } catch {
            throw JSONFieldError(line: value.line, path: path, message: error.description)
        }
    }

    private static func hex16(_ reader: inout JSONObjectReader, _ key: String) throws(JSONFieldError) -> UInt16? {
        guard let text = try reader.string(key) else { return nil }
        guard let value = UInt16(text.hasPrefix("0x") ? String(text.dropFirst(2)) : text, radix: 16) else {
            throw reader.error(key, "expected a 16-bit hex id such as \"0eef\"")
        }
        return value
    }

    private static func strings(_ reader: inout JSONObjectReader, _ key: String) throws(JSONFieldError) -> [String] {
        guard let items = try reader.array(key) else { return [] }
        return try items.map { (item: JSONValue) throws(JSONFieldError) -> String in
            guard case .string(let text, _) = item else { throw reader.error(key, "expected an array of strings") }
            return text
        }
    }
}

extension ConfigLoader {
    /// `"palmSize": number`, above 0 (a threshold of 0 would make every touch that reports a size a palm).
    static func palmSize(_ fields: inout JSONObjectReader) throws(JSONFieldError) -> Double? {
        guard let value = try fields.number("palmSize") else { return nil }
        guard value > 0, value <= 100_000 else {
            throw fields.error(
                "palmSize",
                "expected a size above 0 (millimetres, or device units on an axis without a resolution), found \(NumberText.text(value))"
            )
        }
        return value
    }
}

extension ConfigLoader {
    /// A stuck-touch limit: 0 (that rule off), or 0.1 s to a day.
    static func stuckLimit(_ fields: inout JSONObjectReader, _ key: String) throws(JSONFieldError) -> Double? {
        guard let value = try fields.number(key) else { return nil }
        guard value == 0 || (value >= 0.1 && value <= 86_400) else {
            throw fields.error(
                key, "expected 0 (off) or a number of seconds from 0.1 to 86400, found \(NumberText.text(value))")
        }
        return value
    }
}

extension Config.DeviceRule {
    /// The stuck-touch rules the device's settings give: each limit set here, else the default's.
    public var stuckTouchPolicy: StuckTouchPolicy {
        func limit(_ seconds: Double?, default standard: EventTime.Duration?) -> EventTime.Duration? {
            guard let seconds else { return standard }
            return seconds == 0 ? nil : EventTime.Duration(microseconds: Int64((seconds * 1_000_000).rounded()))
        }
        return StuckTouchPolicy(
            silentLimit: limit(stuckSilentSeconds, default: StuckTouchPolicy.standard.silentLimit),
            motionlessLimit: limit(stuckMotionlessSeconds, default: StuckTouchPolicy.standard.motionlessLimit))
    }
}
