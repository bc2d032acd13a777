import TouchCore
import TouchWire

extension Engine {
    /// When the client is to be closed if nothing changes: a connection that never subscribed nor asked anything,
    /// a timeout after it connected; one whose replies wait unread, a timeout after they started waiting.
    func closingDeadline(of client: ClientState) -> EventTime? {
        let idle = !client.hasBeenActive && client.subscription == nil ? client.connectedAt + settings.idleTimeout : nil
        let stalled = client.isStalled ? client.lastDrained + settings.idleTimeout : nil
        switch (idle, stalled) {
        case (let a?, let b?): return min(a, b)
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (nil, nil): return nil
        }
    }

    /// The earliest closing deadline, worked out afresh from the clients as they are now (a handful), so it is
    /// never a stale, earlier one that would wake the adapter for nothing.
    var housekeepingDeadline: EventTime? {
        var earliest: EventTime?
        for client in clients.values {
            if let deadline = closingDeadline(of: client) { earliest = min(earliest ?? deadline, deadline) }
        }
        return earliest
    }

    /// Closes the connections whose closing deadline has come.
    func housekeep() {
        let timeout = settings.idleTimeout
        let seconds = timeout.microseconds / 1_000_000
        for client in clients.values.sorted(by: { $0.id < $1.id }) {
            if !client.hasBeenActive && client.subscription == nil && client.connectedAt + timeout <= now {
                let goodbye = ServerMessages.goodbye(
                    code: "idle", message: "no request in \(seconds) s after connecting")
                var finalBytes: [UInt8] = []
                _ = client.queue.enqueue(goodbye, kind: .reply)
                client.queue.flush { raw in
                    finalBytes = Array(raw)
                    return raw.count
                }
                disconnect(client, reason: "idle: no request in \(seconds) s", finalBytes: finalBytes)
            } else if client.isStalled && client.lastDrained + timeout <= now {
                disconnect(client, reason: "did not read its replies for \(seconds) s")
            }
        }
    }
}
