import TouchCore
import TouchJSON
import TouchScene
import TouchWire

extension Engine {
    /// Shows the dispatched events to the observer, then queues them for clients.
    func broadcastDispatched() {
        guard !dispatchBuffer.isEmpty else { return }
        if let observer { for event in dispatchBuffer { observer(.dispatched(event)) } }
        broadcast(dispatchBuffer)
        dispatchBuffer.removeAll(keepingCapacity: true)
    }

    /// Encodes each event once and copies its bytes into the queue of every subscriber whose filter admits it.
    func broadcast(_ events: [DispatchEvent]) {
        // Nothing to encode when nobody listens (clients that only made requests get no events).
        guard !events.isEmpty, !subscribers.isEmpty else { return }
        // Subscribers without a filter (the usual case) need only the queue kind: the whole route, with its strings,
        // cost more per event than encoding a frame line.
        let filtering = subscribers.contains { !$0.admitsEverything }
        // By position, not `for event in events`, which copied each event (its strings retained and released).
        for position in events.indices {
            writer.reset()
            let queueKind = encode(events[position])
            if filtering {
                let route = EventRoute(events[position])
                enqueueWritten(kind: queueKind) { $0.admits(route) }
            } else {
                // No route at all, not a nil one: an optional route cost a call to destroy it for every event.
                enqueueWritten(kind: queueKind) { _ in true }
            }
        }
    }

    /// Copies the writer's line into the queue of every subscriber `admits`.
    @inline(__always)
    private func enqueueWritten(kind: OutboundQueue.Kind, admits: (ClientState) -> Bool) {
        var index = 0
        // A subscriber may be disconnected (overflow) inside the loop, which shortens `subscribers`.
        while index < subscribers.count {
            let client = subscribers[index]
            index += 1
            guard admits(client) else { continue }
            let outcome = writer.withUnsafeBytes { client.enqueue($0, kind: kind, at: now) }
            settle(outcome, for: client)
            if client.isClosed { index -= 1 }
        }
    }

    /// Encodes the event into `writer` and returns how a slow client's queue may coalesce it: one look at the
    /// event for both (each `switch` over it copied the event's payload, strings retained and released).
    private func encode(_ event: DispatchEvent) -> OutboundQueue.Kind {
        switch event {
        case .touch(let touch):
            DispatchEventEncoder.encode(touch, into: &writer)
            return .of(touch)
        case .gesture(let region, let gesture):
            DispatchEventEncoder.encode(gesture, region: region, into: &writer)
            return .of(gesture, region: region)
        case .regionMoved, .regionScrolled, .frame:
            DispatchEventEncoder.encode(event, into: &writer)
            return .essential
        }
    }

    /// Sends a notice (device, scene) to subscribers of that kind; a device notice only to those whose device
    /// filter admits its device.
    func notify(_ bytes: [UInt8], kind: EventKind, device: String? = nil) {
        for client in subscribers {
            guard client.subscription?.admits(kind, device: device) == true else { continue }
            settle(bytes.withUnsafeBytes { client.enqueue($0, kind: .essential, at: now) }, for: client)
        }
    }

    /// What a queued event means for its client: flush it, note that it is slow, or let it go.
    private func settle(_ outcome: OutboundQueue.Outcome, for client: ClientState) {
        switch outcome {
        case .queued:
            requestFlush(client)
        case .coalesced(let dropped):
            log(.debug, "client \(client.id) is slow: \(dropped) superseded lines dropped")
            requestFlush(client)
        case .overflow:
            disconnect(
                client, reason: "did not read: its queue of \(settings.queueBytes) bytes overflowed")
        }
    }
}
