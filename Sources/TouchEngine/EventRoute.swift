import TouchCore
import TouchScene
import TouchWire

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
        case .gesture(let id, _):
            kind = .gesture
            scope = .region(id)
            device = nil
        case .regionMoved(let id, _, _), .regionScrolled(let id, _, _):
            kind = .region
            scope = .region(id)
            device = nil
        case .frame(let name, _):
            kind = .frame
            scope = .none
            device = name
        }
        queueKind = Self.queueKind(of: event)
    }

    /// How a slow client's queue may coalesce the event: all the fan-out needs when no subscriber filters.
    public static func queueKind(of event: DispatchEvent) -> OutboundQueue.Kind {
        switch event {
        case .touch(let touch):
            touch.phase == .move ? .move(finger: touch.key) : .essential
        case .gesture(let id, let gesture):
            gesture.event == .changed
                ? .gestureChange(OutboundQueue.GestureChangeKey(region: id, gesture: gesture.name)) : .essential
        case .regionMoved, .regionScrolled, .frame:
            .essential
        }
    }
}

extension Subscription {
    public func admits(_ route: EventRoute) -> Bool { admits(route.kind, scope: route.scope, device: route.device) }
}
