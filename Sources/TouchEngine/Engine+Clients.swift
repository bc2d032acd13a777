import TouchCore
import TouchWire

extension Engine {
    public enum Admission: Equatable, Sendable {
        case admitted(ClientID)
        /// Write this goodbye if the socket takes it, then close.
        case refused(goodbye: [UInt8])
    }

    /// A peer connected: admitted (its hello is queued) or refused, by its kernel credentials alone.
    public func connect(_ credentials: PeerCredentials, at time: EventTime) -> Admission {
        now = max(now, time)
        let permissions: Permissions
        switch settings.access.admission(of: credentials, connected: clients.count) {
        case .refuse(let code, let message):
            let (shouldLog, heldBack) = refusalLog.admit(at: time.microseconds)
            if shouldLog {
                let more = heldBack > 0 ? " (and \(heldBack) more refused since the last such line)" : ""
                log(.notice, "refused client pid \(credentials.pid) uid \(credentials.uid): \(message)\(more)")
            }
            return .refused(goodbye: ServerMessages.goodbye(code: code, message: message))
        case .admit(let granted):
            permissions = granted
        }
        let client = ClientState(
            id: ClientID(nextClientID), credentials: credentials, permissions: permissions,
            maximumLineBytes: settings.maximumLineBytes, queueBytes: settings.queueBytes, at: time)
        nextClientID += 1
        clients[client.id] = client
        let mayChange = permissions.changeScene ? " (may change the scene)" : ""
        logConnection("client \(client.id) connected: pid \(credentials.pid) uid \(credentials.uid)\(mayChange)")
        reply(
            ServerMessages.hello(
                server: settings.serverName + " " + settings.version, protocolVersion: ProtocolVersion.current,
                devices: deviceSummaries, scene: scene, sceneVersion: sceneVersion, permissions: permissions),
            to: client)
        reportStatus()
        return .admitted(client.id)
    }

    /// Whether the engine takes more of the client's bytes now (false while its requests wait for it to read).
    public func wantsInput(from id: ClientID) -> Bool {
        connectedClient(id)?.wantedInterest.contains(.readable) ?? false
    }

    /// Whether requests of the client wait to be handled (its replies pile up, or its turn's budget was spent).
    public func hasPendingRequests(of id: ClientID) -> Bool { connectedClient(id)?.hasPendingItems ?? false }

    /// Bytes the client sent: framed into requests, which are answered in order unless its replies pile up.
    public func receive(_ bytes: ArraySlice<UInt8>, from id: ClientID, at time: EventTime) {
        guard let client = connectedClient(id) else { return }
        now = max(now, time)
        client.frame(bytes)
        requestBudget.refill(at: now, anyDeferred: hasDeferredRequests)
        handlePending(of: client)
        requestFlush(client)
    }

    /// The client sent end-of-file: what it sent is still answered; the connection closes once that is delivered.
    public func inputEnded(from id: ClientID, at time: EventTime) {
        guard let client = connectedClient(id) else { return }
        now = max(now, time)
        client.inputClosed = true
        requestFlush(client)
    }

    /// The connection is gone (hung up while not being read, or a read failed).
    public func connectionLost(_ id: ClientID, reason: String, at time: EventTime) {
        guard let client = connectedClient(id) else { return }
        now = max(now, time)
        disconnect(client, reason: reason)
    }

    /// Hands all of the client's queued bytes to `write` at once (one system call), then answers its waiting
    /// requests while the queue is down to a quarter, writing again as it goes, until none waits or the socket is
    /// full.
    /// Requests are handled only here and in `receive`, never inside another client's flush: a request that
    /// changes the scene queues lines for every client, and must not start the next request of the same client
    /// inside its own handling (replies out of order, unbounded recursion).
    public func flush(_ id: ClientID, at time: EventTime, write: (UnsafeRawBufferPointer) -> WriteResult) {
        // Unretained (a strong reference cost a retain and a release a flush): `clients` holds the client, and a
        // disconnect on the way hands it to `retiredClients`, which holds it until the next `takeEffects()`.
        guard let found = unretainedConnectedClient(id) else { return }
        found._withUnsafeGuaranteedRef { flushQueue(of: $0, at: time, write: write) }
    }

    private func flushQueue(of client: ClientState, at time: EventTime, write: (UnsafeRawBufferPointer) -> WriteResult)
    {
        now = max(now, time)
        client.flushRequested = false
        requestBudget.refill(at: now, anyDeferred: hasDeferredRequests)
        while true {
            let queued = client.queue.byteCount
            var failed = false
            client.queue.flush { raw in
                switch write(raw) {
                case .wrote(let count): return count
                case .failed:
                    failed = true
                    return 0
                }
            }
            if failed {
                disconnect(client, reason: "the connection failed")
                return
            }
            if client.queue.byteCount < queued || client.queue.isEmpty { client.lastDrained = time }
            if client.inputClosed && !client.hasPendingItems && client.queue.isEmpty {
                disconnect(client, reason: "closed the connection")
                return
            }
            // Waiting requests are answered once the queue is down to a quarter (docs/protocol.md): each turn of
            // this loop either answers one or more (queueing their replies) or stops.
            // Deferred requests are the timer's (`resumeDeferredRequests`): a flush only writes their replies.
            guard client.hasPendingItems, client.queue.isUnderLowWater, !client.requestsDeferred else { break }
            // What these requests queue for this client is written at the top of the loop, not by another flush:
            // a `.flush` effect would have the adapter call this again at once, with a new budget.
            client.flushRequested = true
            handlePending(of: client)
            client.flushRequested = false
            guard !client.isClosed else { return }
        }
        let interest = client.wantedInterest
        if interest != client.interest {
            client.interest = interest
            effects.append(.watch(client.id, interest))
        }
    }

    /// The connected client `id` names. The last one found is kept and tried first: the adapter flushes the same
    /// client turn after turn (the usual daemon has one subscriber), and hashing its id cost about 280 instructions
    /// a flush. A client leaves `clients` only in `disconnect` and `shutdown`, which both mark it closed, so a kept
    /// client that is not closed is still the one `clients` holds for its id.
    func connectedClient(_ id: ClientID) -> ClientState? {
        unretainedConnectedClient(id)?.takeUnretainedValue()
    }

    /// `connectedClient(_:)` for a caller that holds the client no longer than `clients` or `retiredClients` does:
    /// for the rest of the current input.
    func unretainedConnectedClient(_ id: ClientID) -> Unmanaged<ClientState>? {
        if let last = lastFoundClient, last._withUnsafeGuaranteedRef({ $0.id == id && !$0.isClosed }) { return last }
        lastFoundClient = clients[id].map { Unmanaged.passUnretained($0) }
        return lastFoundClient
    }

    /// Asks the adapter (once per turn) to flush the client.
    func requestFlush(_ client: ClientState) {
        guard !client.flushRequested else { return }
        client.flushRequested = true
        effects.append(.flush(client.id))
    }

    /// Handles waiting requests until none is left, the client's replies pile up (backpressure: its requests then
    /// wait, and the socket is not read, until it reads its replies), or the shared budget is spent: the rest then
    /// wait for the next turn of the adapter's loop (`nextDeadline` is now), so the adapter serves whatever else is
    /// ready (devices, timers, other clients) before they are handled, whether or not the client's socket can take
    /// more bytes.
    func handlePending(of client: ClientState) {
        while !client.isBackpressured, !client.isClosed, client.hasPendingItems {
            guard !requestBudget.isSpent else {
                if !client.requestsDeferred { deferredClients += 1 }
                client.requestsDeferred = true
                return
            }
            guard let item = client.nextPendingItem() else { return }
            client.hasBeenActive = true
            requestWork = .line
            handle(item, from: client)
            requestBudget.spend(on: item, work: requestWork)
        }
    }

    /// Clients whose requests wait for a turn of the loop (`nextDeadline` is then now: each turn serves a budget).
    public var hasDeferredRequests: Bool { deferredClients > 0 }

    /// A turn of the loop has come: one budget for the deferred requests of all clients, taken in turn from the
    /// client after the one served first last time, so that no client's requests wait behind another's for ever.
    func resumeDeferredRequests() {
        requestBudget.refill(at: now)
        let waiting = clients.values.filter(\.requestsDeferred).sorted { $0.id < $1.id }
        let start = waiting.firstIndex { $0.id > lastResumedClient } ?? 0
        for client in waiting[start...] + waiting[..<start] {
            if requestBudget.isSpent { break }
            if client === waiting[start] { lastResumedClient = client.id }
            if client.requestsDeferred { deferredClients -= 1 }
            client.requestsDeferred = false
            handlePending(of: client)
            requestFlush(client)
        }
    }

    /// Queues the answer to a client's request: never dropped; bounded by backpressure, not by the queue limit.
    func reply(_ bytes: [UInt8], to client: ClientState) {
        _ = bytes.withUnsafeBytes { client.enqueue($0, kind: .reply, at: now) }
        requestFlush(client)
    }

    /// An info line about a connection, throttled (`connectionLog`).
    func logConnection(_ message: String) {
        let (shouldLog, heldBack) = connectionLog.admit(at: now.microseconds)
        guard shouldLog else { return }
        let more = heldBack > 0 ? " (\(heldBack) connection lines held back before this one)" : ""
        log(.info, message + more)
    }

    func disconnect(_ client: ClientState, reason: String, finalBytes: [UInt8] = []) {
        guard let removed = clients.removeValue(forKey: client.id) else { return }
        retiredClients.append(removed)
        client.isClosed = true
        if client.requestsDeferred { deferredClients -= 1 }
        client.requestsDeferred = false
        // Kept unretained: `clients` no longer holds it.
        if lastFoundClient?.toOpaque() == Unmanaged.passUnretained(client).toOpaque() { lastFoundClient = nil }
        if client.subscription != nil {
            if isFanningOut {
                subscribersClosedInFanOut = true
            } else {
                subscribers.removeAll { $0 === client }
            }
        }
        if !client.transientRegions.isEmpty { closedTransientRegions.append((client.id, client.transientRegions)) }
        effects.append(.close(client.id, finalBytes: finalBytes))
        reportStatus()
        logConnection("client \(client.id) disconnected: \(reason)")
    }
}
