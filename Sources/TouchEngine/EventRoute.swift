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

    /// How a slow client's queue may coalesce the event: all the fan-out needs when no subscriber filters.
    public static func queueKind(of event: DispatchEvent) -> OutboundQueue.Kind {
        switch event {
        case .touch(let touch): .of(touch)
        case .gesture(let id, let gesture): .of(gesture, region: id)
        case .regionMoved, .regionScrolled, .frame: .essential
        }
    }
}

extension OutboundQueue.Kind {
    /// A finger's moves coalesce (only the newest matters); its other events are essential.
    static func of(_ touch: DispatchedTouch) -> Self { touch.phase == .move ? .move(finger: touch.key) : .essential }

    /// A gesture's `changed` reports coalesce by region and gesture; its other reports are essential.
    static func of(_ gesture: GestureEvent, region: InternedString) -> Self {
        gesture.event == .changed
            ? .gestureChange(OutboundQueue.GestureChangeKey(region: region, gesture: gesture.nameID)) : .essential
    }
}

extension Subscription {
    /// The device's name is made a string only for a subscription that filters devices.
    public func admits(_ route: EventRoute) -> Bool {
        admits(route.kind, scope: route.scope, device: devices.isEmpty ? nil : route.device?.string)
    }
}
