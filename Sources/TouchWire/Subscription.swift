import TouchCore
import TouchGestures
import TouchJSON
import TouchScene

/// The kinds of event a client can subscribe to (`subscribe`'s `events`).
public enum EventKind: String, CaseIterable, Sendable {
    case touch, gesture, frame, region, device, scene

    /// The kind's bit in a subscription's mask: testing it costs a few instructions, where a `Set` hashes the
    /// kind's raw string for every event of every filtering subscriber.
    public var bit: UInt8 {
        switch self {
        case .touch: 1 << 0
        case .gesture: 1 << 1
        case .frame: 1 << 2
        case .region: 1 << 3
        case .device: 1 << 4
        case .scene: 1 << 5
        }
    }
}

/// What an event says about regions, for a subscription's `regions` filter.
public enum RegionScope: Equatable, Sendable {
    /// Not about a region (frames, device and scene notices): the filter does not apply.
    case none
    /// A finger that hit no region (`"region": null`).
    case unassigned
    /// Interned as the event carries it: the string is looked at only by a subscription that filters regions.
    case region(InternedString)
}

/// Which events a subscribed client receives; empty sets mean "all".
public struct Subscription: Equatable, Sendable {
    public var kinds: Set<EventKind> {
        get { Set(EventKind.allCases.filter { kindMask & $0.bit != 0 }) }
        set { kindMask = newValue.reduce(0) { $0 | $1.bit } }
    }
    /// `kinds` as bits (`EventKind.bit`); 0 is the empty set, which admits every kind.
    private var kindMask: UInt8 = 0
    public var regions: Set<String> = []
    public var devices: Set<String> = []
    /// The kinds admitted, as bits (`EventKind.bit`): every kind's bit when `kinds` is empty.
    public var admittedKindBits: UInt8 { kindMask == 0 ? ~0 : kindMask }
    /// Whether a region or device filter applies: without one, the kind alone decides.
    public var filtersRegionsOrDevices: Bool { !regions.isEmpty || !devices.isEmpty }
    /// Include fingers that hit no region when filtering by regions.
    public var unassigned = false
    /// The keys of touch and gesture lines beyond their core (`FieldSelection`): all of them unless `fields` said.
    public var fields: FieldSelection = .all

    public init(
        kinds: Set<EventKind> = [], regions: Set<String> = [], devices: Set<String> = [], unassigned: Bool = false,
        fields: FieldSelection = .all
    ) {
        self.kinds = kinds
        self.regions = regions
        self.devices = devices
        self.unassigned = unassigned
        self.fields = fields
    }

    /// Whether an event of `kind`, about `scope`, from `device` (nil: not from a device) goes to this subscriber.
    public func admits(_ kind: EventKind, scope: RegionScope = .none, device: String? = nil) -> Bool {
        if kindMask != 0 && kindMask & kind.bit == 0 { return false }
        if let device, !devices.isEmpty && !devices.contains(device) { return false }
        guard !regions.isEmpty else { return true }
        switch scope {
        case .none: return true
        case .unassigned: return unassigned
        case .region(let id): return regions.contains(id.string)
        }
    }
}
