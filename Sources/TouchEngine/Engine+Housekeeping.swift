import TouchCore
import TouchWire

extension Engine {
    /// When an idle client (`ClientState.isIdle`) is closed: a timeout after it connected.
    func idleDeadline(of client: ClientState) -> EventTime? {
        client.isIdle ? client.connectedAt + settings.idleTimeout : nil
    }

    /// When a stalled client (`ClientState.isStalled`) is closed: a timeout after its bytes started waiting.
    func stallDeadline(of client: ClientState) -> EventTime? {
        client.isStalled ? client.lastDrained + settings.idleTimeout : nil
    }

    /// The earliest closing deadline, worked out afresh from the clients as they are now (a handful), so it is
    /// never a stale, earlier one that would wake the adapter for nothing.
    var housekeepingDeadline: EventTime? {
        var earliest = EventTime.earliest(refusalLog.heldBackDeadline, connectionLog.heldBackDeadline)
        for client in clients.values {
            earliest = EventTime.earliest(
                earliest, EventTime.earliest(idleDeadline(of: client), stallDeadline(of: client)))
        }
        return earliest
    }

    /// Closes the connections whose closing deadline has come, and counts the log lines held back in an interval
    /// that is over with no line after them. Connection lines are counted after the closings: at EventTime.max an
    /// interval's end saturates to now, so the lines these closings hold back are due at once and must be counted in
    /// this wake-up, not the next.
    func housekeep() {
        if let refused = refusalLog.takeHeldBack(at: now.microseconds) {
            log(.notice, "\(refused) more client(s) refused in the last second, not logged one by one")
        }
        let seconds = settings.idleTimeout.microseconds / 1_000_000
        for client in clients.values.sorted(by: { $0.id < $1.id }) {
            if let deadline = idleDeadline(of: client), deadline <= now {
                let goodbye = ServerMessages.goodbye(
                    code: "idle", message: "no request in \(seconds) s after connecting")
                disconnect(
                    client, reason: "idle: no request in \(seconds) s", finalBytes: client.takeAll(then: goodbye))
            } else if let deadline = stallDeadline(of: client), deadline <= now {
                disconnect(client, reason: "did not read its replies for \(seconds) s")
            }
        }
        if let held = connectionLog.takeHeldBack(at: now.microseconds) {
            log(.info, "\(held) connection lines held back in the last second")
        }
    }
}
