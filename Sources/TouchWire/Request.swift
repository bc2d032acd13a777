import TouchJSON
import TouchScene

/// What a client asks (docs/protocol.md, "Requests"). Every request may carry an `id`, echoed in its reply.
public enum Request: Equatable, Sendable {
    case ping
    case subscribe(Subscription)
    case unsubscribe
    case devices
    case getScene
    case setScene(Scene)
    /// `transient`: the region goes when the connection that added it closes (docs/protocol.md).
    case addRegion(parent: String?, region: JSONValue, transient: Bool)
    case updateRegion(id: String, fields: JSONValue)
    case removeRegion(id: String)
    /// Read the configuration's device calibrations and the scene file again, as SIGHUP does (`touchctl
    /// calibrate` after writing a rule). It needs the scene permission: a reload replaces the scene in force.
    case reload

    /// Whether the request changes the scene (needs the scene permission).
    public var changesScene: Bool {
        switch self {
        case .setScene, .addRegion, .updateRegion, .removeRegion, .reload: true
        default: false
        }
    }
}

/// A request that could not be understood, with a code the client can act on.
public struct RequestError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case badJSON = "bad-json"
        case badRequest = "bad-request"
        case unknownOp = "unknown-op"
        case invalidScene = "invalid-scene"
        case notFound = "not-found"
        case permissionDenied = "permission-denied"
        case lineTooLong = "line-too-long"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// A client's name for something unknown, as an error repeats it: cut to 64 characters, so that a megabyte of
    /// name is not sent back whole.
    public static func clipped(_ name: String) -> String {
        name.count > 64 ? name.prefix(64) + "…" : name
    }
}

/// A request's `id`, echoed exactly in its reply: any JSON string, or an integer that fits 64 bits (printed as
/// read; a Double would change ids above 2^53).
public enum RequestID: Equatable, Hashable, Sendable {
    case string(String)
    case integer(Int64)

    /// The id of a request line, nil when it has none; throws for an id of any other kind.
    static func read(_ value: JSONValue?, source: ArraySlice<UInt8>?) throws(RequestError) -> RequestID? {
        switch value {
        case nil: return nil
        case .string(let text, _)?:
            // Echoed as written: the parser refuses strings that are not UTF-8 (bad-json), so none became U+FFFD.
            return .string(text)
        case .number?:
            if let source, source.allSatisfy({ $0 == UInt8(ascii: "-") || (48...57).contains($0) }),
                let integer = Int64(String(decoding: source, as: UTF8.self))
            {
                return .integer(integer)
            }
            fallthrough
        default:
            throw RequestError(.badRequest, "id: expected a string or an integer that fits in 64 bits")
        }
    }
}

public enum RequestDecoder {
    /// Decodes one line: the request and its id (echoed exactly), or the error with the id when one could be read.
    /// `refusingSceneChangesOf`: the uid of a peer without the scene permission, whose request to change the scene
    /// is refused before its scene or region is read (it cannot make the daemon decode and validate a large scene).
    public static func decode(_ line: [UInt8], refusingSceneChangesOf uid: UInt32? = nil) -> (
        id: RequestID?, result: Result<Request, RequestError>
    ) {
        if let uid, let refused = refusedSceneChange(line, uid: uid) { return refused }
        let value: JSONValue
        let id: RequestID?
        do {
            let parsed = try JSONParser.parse(line, keepingSourceOf: "id")
            value = parsed.value
            id = try RequestID.read(value["id"], source: parsed.source)
        } catch let error as JSONSyntaxError {
            return (
                nil, .failure(RequestError(.badJSON, "line \(error.line), column \(error.column): \(error.message)"))
            )
        } catch let error as RequestError {
            return (nil, .failure(error))
        } catch {
            return (nil, .failure(RequestError(.badRequest, "\(error)")))
        }
        if case .string(let op, _)? = value["op"], !knownOps.contains(op) {
            return (
                id,
                .failure(
                    RequestError(
                        .unknownOp, "unknown op '\(op)'; expected " + knownOps.sorted().joined(separator: ", ")))
            )
        }
        if let uid, case .string(let op, _)? = value["op"], sceneOps.contains(op) {
            return (id, .failure(sceneRefusal(uid: uid)))
        }
        do throws(JSONFieldError) {
            return (id, .success(try request(from: value)))
        } catch {
            // Only what is wrong inside a scene being set is `invalid-scene`; a stray `scene` key elsewhere is not.
            let isSceneContent = value["op"] == .string("set-scene", line: 0) && error.path.hasPrefix("scene")
            let code: RequestError.Code = isSceneContent ? .invalidScene : .badRequest
            return (id, .failure(RequestError(code, "\(error.path.isEmpty ? "" : error.path + ": ")\(error.message)")))
        }
    }

    /// A scene change asked by a peer without the permission, found from the line's `op` alone; nil for any other
    /// line (decoded whole as usual, and refused after decoding if it changes the scene after all).
    public static func refusedSceneChange(_ line: [UInt8], uid: UInt32) -> (
        id: RequestID?, result: Result<Request, RequestError>
    )? {
        guard let members = JSONTopLevel.members(of: line, ["op", "id"]), let op = members["op"],
            case .string(let name, _)? = try? JSONParser.parse(Array(op)), sceneOps.contains(name)
        else { return nil }
        var id: RequestID?
        if let raw = members["id"], let value = try? JSONParser.parse(Array(raw)) {
            id = try? RequestID.read(value, source: raw)
        }
        return (id, .failure(sceneRefusal(uid: uid)))
    }

    /// The ops that change the scene (`Request.changesScene`).
    static let sceneOps: Set<String> = ["set-scene", "add-region", "update-region", "remove-region", "reload"]

    /// The refusal of a scene change to a peer without the permission.
    public static func sceneRefusal(uid: UInt32) -> RequestError {
        RequestError(.permissionDenied, "uid \(uid) may not change the scene")
    }

    public static let knownOps: Set<String> = [
        "ping", "subscribe", "unsubscribe", "devices", "get-scene", "set-scene", "add-region", "update-region",
        "remove-region", "reload",
    ]

    static func request(from value: JSONValue) throws(JSONFieldError) -> Request {
        var reader = try JSONObjectReader(value, path: "")
        _ = reader.raw("id")
        let op = try reader.requiredString("op")
        let request: Request
        switch op {
        case "ping": request = .ping
        case "unsubscribe": request = .unsubscribe
        case "devices": request = .devices
        case "get-scene": request = .getScene
        case "reload": request = .reload
        case "subscribe":
            var subscription = Subscription()
            for name in try strings(&reader, "events") {
                guard let kind = EventKind(rawValue: name) else {
                    throw reader.error(
                        "events",
                        "unknown event kind '\(RequestError.clipped(name))'; expected "
                            + EventKind.allCases.map(\.rawValue).sorted().joined(separator: ", "))
                }
                subscription.kinds.insert(kind)
            }
            subscription.regions = Set(try strings(&reader, "regions"))
            subscription.devices = Set(try strings(&reader, "devices"))
            subscription.unassigned = try reader.bool("unassigned") ?? false
            if try reader.array("fields") != nil {
                switch FieldSelection.named(try strings(&reader, "fields")) {
                case .success(let fields): subscription.fields = fields
                case .failure(let unknown): throw reader.error("fields", unknown.message)
                }
            }
            request = .subscribe(subscription)
        case "set-scene":
            guard let scene = reader.raw("scene") else { throw reader.error(nil, "missing required key 'scene'") }
            do {
                request = .setScene(try SceneLoader.decodeScene(scene))
            } catch {
                throw JSONFieldError(
                    line: error.line, path: "scene" + (error.path.isEmpty ? "" : "." + error.path),
                    message: error.message)
            }
        case "add-region":
            guard let region = reader.raw("region") else { throw reader.error(nil, "missing required key 'region'") }
            request = .addRegion(
                parent: try reader.string("parent"), region: region, transient: try reader.bool("transient") ?? false)
        case "update-region":
            let id = try reader.requiredString("region")
            guard let fields = reader.raw("set") else { throw reader.error(nil, "missing required key 'set'") }
            request = .updateRegion(id: id, fields: fields)
        case "remove-region":
            request = .removeRegion(id: try reader.requiredString("region"))
        default:
            throw JSONFieldError(line: value.line, path: "op", message: "unknown op '\(op)'")
        }
        try reader.rejectUnknownKeys()
        return request
    }

    /// The strings of an array, in the request's order: an error about one of them names the first that is wrong.
    private static func strings(_ reader: inout JSONObjectReader, _ key: String) throws(JSONFieldError) -> [String] {
        guard let items = try reader.array(key) else { return [] }
        var result: [String] = []
        for item in items {
            guard case .string(let text, _) = item else { throw reader.error(key, "expected an array of strings") }
            result.append(text)
        }
        return result
    }
}
