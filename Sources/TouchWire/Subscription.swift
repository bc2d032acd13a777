import TouchCore
import TouchGestures
import TouchScene

/// The kinds of event a client can subscribe to (`subscribe`'s `events`).
public enum EventKind: String, CaseIterable, Sendable {
    case touch, gesture, frame, region, device, scene
}

/// What an event says about regions, for a subscription's `regions` filter.
public enum RegionScope: Equatable, Sendable {
    /// Not about a region (frames, device and scene notices): the filter does not apply.
    case none
    /// A finger that hit no region (`"region": null`).
    case unassigned
    case region(String)
}

/// Which events a subscribed client receives; empty sets mean "all".
public struct Subscription: Equatable, Sendable {
    public var kinds: Set<EventKind> = []
    public var regions: Set<String> = []
    public var devices: Set<String> = []
    /// Include fingers that hit no region when filtering by regions.
    public var unassigned = false

    public init(
        kinds: Set<EventKind> = [], regions: Set<String> = [], devices: Set<String> = [], unassigned: Bool = false
    ) {
        self.kinds = kinds
        self.regions = regions
        self.devices = devices
        self.unassigned = unassigned
    }

    /// Whether an event of `kind`, about `scope`, from `device` (nil: not from a device) goes to this subscriber.
    public func admits(_ kind: EventKind, scope: RegionScope = .none, device: String? = nil) -> Bool {
        if !kinds.isEmpty && !kinds.contains(kind) { return false }
        if let device, !devices.isEmpty && !devices.contains(device) { return false }
        guard !regions.isEmpty else { return true }
        switch scope {
        case .none: return true
        case .unassigned: return unassigned
        case .region(let id): return regions.contains(id)
        }
    }
}
