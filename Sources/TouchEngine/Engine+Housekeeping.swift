import TouchCore
import TouchWire

extension Engine {
    func scheduleHousekeeping(at deadline: EventTime) {
        if let armed = housekeepingDeadline, armed <= deadline { return }
        housekeepingDeadline = deadline
    }

    /// Closes connections that never subscribed nor asked anything, and those whose replies have waited a whole
    /// timeout without the client reading any; then sets the next such deadline.
    func housekeep() {
        let timeout = settings.idleTimeout
        let seconds = timeout.microseconds / 1_000_000
        var next: EventTime?
        for client in clients.values.sorted(by: { $0.id < $1.id }) {
            if !client.hasBeenActive && client.subscription == nil {
                let deadline = client.connectedAt + timeout
                if deadline <= now {
                    let goodbye = ServerMessages.goodbye(
                        code: "idle", message: "no request in \(seconds) s after connecting")
                    var finalBytes: [UInt8] = []
                    _ = client.queue.enqueue(goodbye, kind: .reply)
                    client.queue.flush { raw in
                        finalBytes = Array(raw)
                        return raw.count
                    }
                    disconnect(client, reason: "idle: no request in \(seconds) s", finalBytes: finalBytes)
                    continue
                }
                next = min(next ?? deadline, deadline)
            }
            if client.isStalled {
                let deadline = client.lastDrained + timeout
                if deadline <= now {
                    disconnect(client, reason: "did not read its replies for \(seconds) s")
                    continue
                }
                next = min(next ?? deadline, deadline)
            }
        }
        housekeepingDeadline = next
    }
}
