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

    public func admits(_ route: EventRoute) -> Bool { admits(route.kind, scope: route.scope, device: route.device) }
}

/// How one dispatched event is routed: which subscriptions admit it, and how a slow client's queue may coalesce it.
public struct EventRoute: Equatable, Sendable {
    public var kind: EventKind
    public var scope: RegionScope
    public var device: String?
    public var queueKind: OutboundQueue.Kind

    public init(kind: EventKind, scope: RegionScope, device: String?, queueKind: OutboundQueue.Kind) {
        self.kind = kind
        self.scope = scope
        self.device = device
        self.queueKind = queueKind
    }

    public init(_ event: DispatchEvent) {
        switch event {
        case .touch(let touch):
            kind = .touch
            scope = touch.region.map(RegionScope.region) ?? .unassigned
            device = touch.device
            queueKind =
                touch.phase == .move ? .move(finger: Self.fingerKey(device: touch.device, touch.finger)) : .essential
        case .gesture(let id, let gesture):
            kind = .gesture
            scope = .region(id)
            device = nil
            queueKind = gesture.event == .changed ? .gestureChange(key: id + "/" + gesture.name) : .essential
        case .regionMoved(let id, _, _):
            kind = .region
            scope = .region(id)
            device = nil
            queueKind = .essential
        case .frame(let name, _):
            kind = .frame
            scope = .none
            device = name
            queueKind = .essential
        }
    }

    /// A finger's moves coalesce per device and finger.
    static func fingerKey(device: String, _ finger: FingerID) -> UInt64 {
        var hash: UInt64 = 1_469_598_103_934_665_603
        for byte in device.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return hash << 32 ^ UInt64(finger.rawValue)
    }
}
