import TouchGestures
import TouchJSON

/// An actions file (docs/actions.md), validated: regions to put into the scene while touchd-actions runs, rules
/// that turn gesture events into commands, and the bounds on those commands.
public struct ActionsFile: Sendable {
    public static let supportedVersion = 1

    /// Regions as written (each checked as a scene region), added with `transient` so they go with the connection.
    public var regions: [ActionRegion] = []
    public var rules: [ActionRule] = []
    public var limits = CommandLimits()

    public init() {}
}

/// A region of the actions file: its id and the JSON object sent in `add-region`.
public struct ActionRegion: Sendable, Equatable {
    public var id: String
    public var json: JSONValue
}

/// How many commands run and wait at once, and how long one may run.
public struct CommandLimits: Sendable, Equatable {
    /// Commands running at once; further ones wait.
    public var maximumRunning = 4
    /// Commands waiting for a free place; beyond this a command is dropped (and logged).
    public var maximumQueued = 16
    /// A command running this long is sent SIGTERM (rules can say otherwise; 0: no limit).
    public var timeoutMilliseconds: Int64 = 10_000
    /// After SIGTERM, this long before SIGKILL.
    public var killAfterMilliseconds: Int64 = 2_000

    public init() {}
}

/// What a rule runs: a program with its arguments (no shell), or a line for `/bin/sh -c` (`"shell": true`).
public enum ActionCommand: Sendable, Equatable {
    case argv([String])
    case shell(String)

    /// The argument vector to start.
    public var arguments: [String] {
        switch self {
        case .argv(let arguments): arguments
        case .shell(let line): ["/bin/sh", "-c", line]
        }
    }
}

/// One rule: which gesture events it matches and the command they run.
public struct ActionRule: Sendable, Equatable {
    /// Where it is in the file, for log lines: `rules[2]` and its line.
    public var path: String
    public var line: Int
    /// nil: any region.
    public var region: String?
    public var kind: GestureKind
    /// The gesture's name in its region (docs/scene.md: defaults to its kind); nil: any name of that kind.
    public var name: String?
    public var state: GestureEventKind = .ended
    public var fingers: Int?
    public var direction: SwipeDirection?
    public var taps: Int?
    public var command: ActionCommand
    /// 0: no limit.
    public var timeoutMilliseconds: Int64
    /// `changed` rules: fire at most once per this much event time (the first `changed` fires).
    public var repeatMilliseconds: Int64?
    /// `changed` rules: fire once the gesture's changes have paused this long (seen from the next event's time),
    /// or when the gesture ends, with the last change before the pause.
    public var debounceMilliseconds: Int64?

    public init(
        path: String, line: Int = 0, region: String? = nil, kind: GestureKind, name: String? = nil,
        state: GestureEventKind = .ended, command: ActionCommand, timeoutMilliseconds: Int64 = 10_000
    ) {
        self.path = path
        self.line = line
        self.region = region
        self.kind = kind
        self.name = name
        self.state = state
        self.command = command
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// `rules[2] (swipe ended on left-edge)`, for log lines.
    public var label: String {
        "\(path) (\(name ?? kind.rawValue) \(state.rawValue)\(region.map { " on " + $0 } ?? ""))"
    }
}

/// An actions file that cannot be used: `actions.json:14: rules[1].run: must not be empty`.
public typealias ActionsFileError = JSONFileError
