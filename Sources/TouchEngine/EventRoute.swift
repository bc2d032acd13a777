import TouchCore
import TouchGestures
import TouchJSON
import TouchScene
import TouchWire

/// How one dispatched event is routed: which subscriptions admit it, and how a slow client's queue may coalesce it.
public struct EventRoute: Equatable, Sendable {
    public var kind: EventKind
    public var scope: RegionScope
    /// Interned as the event carries it, so making a route copies no string (see `Subscription.admits(_:)` below).
    public var device: InternedString?
    public var queueKind: OutboundQueue.Kind

    public init(kind: EventKind, scope: RegionScope, device: InternedString?, queueKind: OutboundQueue.Kind) {
        self.kind = kind
        self.scope = scope
        self.device = device
        self.queueKind = queueKind
    }

    public init(_ event: DispatchEvent) { self.init([event], at: 0) }

    /// The route of the event at `position`, switched on where the array holds it: an event passed as an argument
    /// was copied (its 197 bytes) for every event of a filtered fan-out.
    public init(_ events: [DispatchEvent], at position: Int) {
        switch events[position] {
        case .touch(let touch):
            kind = .touch
            scope = touch.regionID.map(RegionScope.region) ?? .unassigned
            device = touch.deviceID
            queueKind = .of(touch)
        case .gesture(let id, let gesture):
            kind = .gesture
            scope = .region(id)
            device = nil
            queueKind = .of(gesture, region: id)
        case .regionMoved(let id, _, _), .regionScrolled(let id, _, _):
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

    /// The kind of the event at `position`, from its case alone: no payload is copied out.
    @inline(__always)
    public static func kind(of events: [DispatchEvent], at position: Int) -> EventKind {
        switch events[position] {
        case .touch: .touch
        case .gesture: .gesture
        case .regionMoved, .regionScrolled: .region
        case .frame: .frame
        }
    }
}

extension Subscription {
    /// The device's name is made a string only for a subscription that filters devices.
    public func admits(_ route: EventRoute) -> Bool {
        admits(route.kind, scope: route.scope, device: devices.isEmpty ? nil : route.device?.string)
    }
}
