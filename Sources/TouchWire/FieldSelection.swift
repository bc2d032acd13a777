/// The keys a subscriber wants in touch and gesture lines beyond each line's core (`subscribe`'s `fields`).
///
/// A line's core is what any client needs to act on it, so it always comes: a touch line's `type`, `finger`,
/// `time_us`, `x` and `y`; a gesture line's `type`, `region`, `gesture`, `kind`, `state`, `time_us`, `x`, `y` and
/// `fingers`. Every other key comes only when selected. Frame, region and notice lines are short and always whole.
/// A client that reads a few keys of each line is spared the bytes of the rest, and the daemon their printing.
public struct FieldSelection: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let device = Self(rawValue: 1 << 0)
    public static let slot = Self(rawValue: 1 << 1)
    /// A touch line's region (a gesture line's is core).
    public static let region = Self(rawValue: 1 << 2)
    public static let localX = Self(rawValue: 1 << 3)
    public static let localY = Self(rawValue: 1 << 4)
    public static let previousX = Self(rawValue: 1 << 5)
    public static let previousY = Self(rawValue: 1 << 6)
    public static let dx = Self(rawValue: 1 << 7)
    public static let dy = Self(rawValue: 1 << 8)
    public static let sinceDown = Self(rawValue: 1 << 9)
    public static let taps = Self(rawValue: 1 << 10)
    public static let rawX = Self(rawValue: 1 << 11)
    public static let rawY = Self(rawValue: 1 << 12)
    public static let pressure = Self(rawValue: 1 << 13)
    public static let touchMajor = Self(rawValue: 1 << 14)
    public static let touchMinor = Self(rawValue: 1 << 15)
    public static let widthMajor = Self(rawValue: 1 << 16)
    public static let widthMinor = Self(rawValue: 1 << 17)
    public static let orientation = Self(rawValue: 1 << 18)
    public static let distance = Self(rawValue: 1 << 19)
    public static let tool = Self(rawValue: 1 << 20)
    public static let vx = Self(rawValue: 1 << 21)
    public static let vy = Self(rawValue: 1 << 22)
    public static let direction = Self(rawValue: 1 << 23)
    public static let scale = Self(rawValue: 1 << 24)
    public static let rotation = Self(rawValue: 1 << 25)

    /// Every key: the whole line, as a subscriber without `fields` gets it.
    public static let all = Self(rawValue: (1 << 26) - 1)

    /// The selectable keys of touch lines, and of gesture lines.
    public static let touchKeys: FieldSelection = [
        .device, .slot, .region, .localX, .localY, .previousX, .previousY, .dx, .dy, .sinceDown, .taps, .rawX, .rawY,
        .pressure, .touchMajor, .touchMinor, .widthMajor, .widthMinor, .orientation, .distance, .tool,
    ]
    public static let gestureKeys: FieldSelection = [.taps, .dx, .dy, .vx, .vy, .direction, .scale, .rotation]

    /// What the selection makes of a line of `kind`: only that kind's keys, and `.all` when it has every one (the
    /// whole line). Two selections that write a line alike so share its encoding: `[]` and `["vx"]` for touch lines,
    /// any selection for frame lines.
    public func forLines(of kind: EventKind) -> FieldSelection {
        let keys: FieldSelection
        switch kind {
        case .touch: keys = .touchKeys
        case .gesture: keys = .gestureKeys
        case .frame, .region, .device, .scene: return .all
        }
        let selected = intersection(keys)
        return selected == keys ? .all : selected
    }

    /// The protocol's name of each key that can be left out, in the order lines write them.
    public static let selectable: [(name: String, field: FieldSelection)] = [
        ("device", .device), ("slot", .slot), ("region", .region), ("local_x", .localX), ("local_y", .localY),
        ("prev_x", .previousX), ("prev_y", .previousY), ("dx", .dx), ("dy", .dy), ("since_down_us", .sinceDown),
        ("taps", .taps), ("raw_x", .rawX), ("raw_y", .rawY), ("pressure", .pressure), ("touch_major", .touchMajor),
        ("touch_minor", .touchMinor), ("width_major", .widthMajor), ("width_minor", .widthMinor),
        ("orientation", .orientation), ("distance", .distance), ("tool", .tool), ("vx", .vx), ("vy", .vy),
        ("direction", .direction), ("scale", .scale), ("rotation", .rotation),
    ]

    /// Keys every touch or gesture line has: naming one selects nothing more, and is not an error.
    public static let coreNames: Set<String> = [
        "type", "finger", "time_us", "x", "y", "gesture", "kind", "state", "fingers",
    ]

    /// The selection of these names, or the first name that no line has.
    public static func named(_ names: some Sequence<String>) -> Result<FieldSelection, UnknownField> {
        var selection: FieldSelection = []
        for name in names {
            if let field = selectable.first(where: { $0.name == name })?.field {
                selection.insert(field)
            } else if !coreNames.contains(name) {
                return .failure(UnknownField(name: name))
            }
        }
        return .success(selection)
    }

    /// A name in `fields` that is no key of a touch or gesture line.
    public struct UnknownField: Error, Equatable, Sendable {
        public var name: String

        public init(name: String) { self.name = name }

        public var message: String {
            "unknown field '\(RequestError.clipped(name))'; expected any of "
                + (FieldSelection.selectable.map(\.name) + FieldSelection.coreNames).sorted().joined(separator: ", ")
        }
    }
}
