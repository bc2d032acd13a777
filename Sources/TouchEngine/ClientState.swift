import TouchCore
import TouchJSON
import TouchScene
import TouchWire

/// One connected client as the engine knows it: who it is, what it may do and subscribed to, its partial input
/// line, the requests read but not yet answered, and its bounded output queue. No socket: the adapter has that.
final class ClientState {
    let id: ClientID
    let credentials: PeerCredentials
    let permissions: Permissions
    var subscription: Subscription? {
        didSet {
            admitsEverything =
                subscription.map { $0.kinds.isEmpty && $0.regions.isEmpty && $0.devices.isEmpty } ?? false
            admittedKindBits = subscription?.admittedKindBits ?? 0
            filtersRegionsOrDevices = subscription?.filtersRegionsOrDevices ?? false
            fields = subscription?.fields ?? .all
            touchFields = fields.forLines(of: .touch)
            gestureFields = fields.forLines(of: .gesture)
        }
    }
    /// Subscribed with no filter (the usual case): the fan-out asks this flag, not the subscription, which it would
    /// copy (three sets: three retains and releases per event per client).
    private(set) var admitsEverything = false
    /// The subscription's kinds as bits (none when not subscribed), and whether it filters regions or devices:
    /// a filter of kinds alone is decided by these, without copying the subscription.
    private(set) var admittedKindBits: UInt8 = 0
    private(set) var filtersRegionsOrDevices = false
    /// The keys it wants in touch and gesture lines (`FieldSelection`), as the subscription said them.
    private(set) var fields: FieldSelection = .all
    /// What the selection makes of touch lines and of gesture lines (`FieldSelection.forLines(of:)`).
    private var touchFields: FieldSelection = .all
    private var gestureFields: FieldSelection = .all

    /// The keys it wants in a line of `kind`: subscribers whose answers are equal get one encoding of the line.
    @inline(__always)
    func fields(for kind: EventKind) -> FieldSelection {
        switch kind {
        case .touch: touchFields
        case .gesture: gestureFields
        case .frame, .region, .device, .scene: .all
        }
    }
    var framer: LineFramer
    var queue: OutboundQueue
    /// Requests read and not yet handled (they wait while the client does not read its replies).
    private var pendingItems: [LineFramer.Item] = []
    private var pendingHead = 0
    /// The client sent end-of-file: handle what it sent, deliver the replies, then close.
    var inputClosed = false
    let connectedAt: EventTime
    /// The last time the queue was seen draining.
    var lastDrained: EventTime
    /// Subscribed or sent a request: a connection that never does is closed as idle.
    var hasBeenActive = false
    /// What the adapter was last told to watch for.
    var interest: Interest = .readable
    /// A `.flush` effect is out and not yet answered.
    var flushRequested = false
    /// An input spent its budget with requests left: they wait for the next turn of the adapter's loop
    /// (`Engine.resumeDeferredRequests`).
    var requestsDeferred = false
    /// Ids of the regions it added with `transient`: removed when it closes.
    var transientRegions: [String] = []
    /// Disconnected, or the engine shut down: the engine has forgotten it (checked in the fan-out's loop, cheaper than a lookup).
    var isClosed = false

    init(
        id: ClientID, credentials: PeerCredentials, permissions: Permissions, maximumLineBytes: Int, queueBytes: Int,
        at now: EventTime
    ) {
        self.id = id
        self.credentials = credentials
        self.permissions = permissions
        framer = LineFramer(maximumLineLength: maximumLineBytes)
        queue = OutboundQueue(limitBytes: queueBytes)
        connectedAt = now
        lastDrained = now
    }

    /// Queues a line. An empty queue had nothing waiting, so the wait for the client to read starts with this
    /// line, not at the last flush that emptied the queue (perhaps long ago: the client would be stalled at once).
    func enqueue(
        _ bytes: UnsafeRawBufferPointer, kind: OutboundQueue.Kind, at now: EventTime
    ) -> OutboundQueue.Outcome {
        if queue.isEmpty { lastDrained = now }
        return queue.enqueue(bytes, kind: kind)
    }

    /// Queues the line the engine encoded at the end of `queue.tail` since `start` (`queue.end` before it wrote),
    /// the wait for the client to read starting as `enqueue` starts it.
    @inline(__always)
    func queueWritten(from start: Int, kind: OutboundQueue.Kind, at now: EventTime) -> OutboundQueue.Outcome {
        if queue.isEmpty(before: start) { lastDrained = now }
        return queue.queueWritten(from: start, kind: kind)
    }

    /// Everything still queued, then `goodbye`: the last bytes the adapter writes before it closes the socket.
    func takeAll(then goodbye: [UInt8]) -> [UInt8] {
        _ = queue.enqueue(goodbye, kind: .reply)
        var remaining: [UInt8] = []
        queue.flush { raw in
            remaining = Array(raw)
            return raw.count
        }
        return remaining
    }

    /// Neither subscribed nor asked anything yet: closed a timeout after connecting.
    var isIdle: Bool { !hasBeenActive && subscription == nil }

    /// Whether requests wait: the replies queued are over the high-water mark.
    var isBackpressured: Bool { queue.isOverHighWater }

    var hasPendingItems: Bool { pendingHead < pendingItems.count }

    /// Bytes wait for a client that is not reading: its requests wait too (backpressure), or it has ended its input
    /// and only its replies are left. A client that stays so for the whole idle timeout is closed.
    var isStalled: Bool { !queue.isEmpty && (isBackpressured || hasPendingItems || inputClosed) }

    /// Whether the client subscribed to events like the one at `position`, of `kind`: its whole route is made only
    /// for a subscription that filters regions or devices (each route takes the event's payload out, a copy of it).
    @inline(__always)
    func admits(_ kind: EventKind, _ events: [DispatchEvent], at position: Int) -> Bool {
        if admitsEverything { return true }
        guard admittedKindBits & kind.bit != 0 else { return false }
        return !filtersRegionsOrDevices || (subscription?.admits(EventRoute(events, at: position)) ?? false)
    }

    /// What the socket should be watched for now.
    var wantedInterest: Interest {
        var interest: Interest = []
        if !inputClosed && !isBackpressured && !hasPendingItems { interest.insert(.readable) }
        // Waiting requests are served when the socket can take their replies: with an empty queue that is at once,
        // on the adapter's next turn.
        // Deferred requests are served by the engine's timer, not by the socket's room.
        if !queue.isEmpty || (hasPendingItems && !requestsDeferred) { interest.insert(.writable) }
        return interest
    }

    func frame(_ bytes: ArraySlice<UInt8>) {
        framer.append(bytes, into: &pendingItems)
    }

    /// The next request to handle, nil when none waits.
    func nextPendingItem() -> LineFramer.Item? {
        guard pendingHead < pendingItems.count else { return nil }
        let item = pendingItems[pendingHead]
        pendingHead += 1
        if pendingHead == pendingItems.count {
            pendingItems.removeAll(keepingCapacity: true)
            pendingHead = 0
        }
        return item
    }
}
