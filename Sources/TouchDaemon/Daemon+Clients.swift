import CShims
import FoundationEssentials
import Glibc
import TouchCore
import TouchEngine
import TouchJSON
import TouchPosix
import TouchScene
import TouchWire

extension Daemon {
    func acceptClients() {
        while true {
            let fd = touchd_accept(listenFD)
            if fd < 0 {
                if errno == EINTR { continue }
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    pauseAccepting(SystemError("accept", subject: socketPath))
                } else if errno != EAGAIN && errno != EWOULDBLOCK {
                    logger.warning("\(SystemError("accept", subject: socketPath))")
                }
                return
            }
            admit(fd)
        }
    }

    /// Out of descriptors (or memory): the pending connection stays in the backlog and the listener would be
    /// readable again at once, so it leaves the loop for 100 ms instead of spinning; logged once per pause.
    func pauseAccepting(_ error: SystemError) {
        guard !acceptPaused else { return }
        acceptPaused = true
        try? loop.modify(listenToken, interest: [])
        logger.warning("\(error); not accepting clients for 100 ms")
        acceptResume?.arm(at: MonotonicClock.nowMicroseconds() + 100_000)
    }

    func resumeAccepting() {
        acceptPaused = false
        try? loop.modify(listenToken, interest: .readable)
    }

    func admit(_ fd: Int32) {
        guard let peer = Posix.peer(ofSocket: fd) else {
            Posix.close(fd)
            return
        }
        let credentials = PeerCredentials(pid: peer.pid, uid: peer.uid, gid: peer.gid, groups: peer.groups)
        let permissions: Permissions
        switch access.admission(of: credentials, connected: clients.count) {
        case .refuse(let code, let message):
            let bytes = ServerMessages.goodbye(code: code, message: message)
            bytes.withUnsafeBytes { _ = try? Posix.write(fd, $0) }
            Posix.close(fd)
            let (log, heldBack) = refusalLog.admit(at: MonotonicClock.nowMicroseconds())
            if log {
                let more = heldBack > 0 ? " (and \(heldBack) more refused since the last such line)" : ""
                logger.notice("refused client pid \(credentials.pid) uid \(credentials.uid): \(message)\(more)")
            }
            return
        case .admit(let granted):
            permissions = granted
        }
        let client = ClientConnection(
            id: nextClientID, fd: fd, credentials: credentials, permissions: permissions,
            maximumLineBytes: config.clients.maximumLineBytes, queueBytes: config.clients.queueBytes)
        nextClientID += 1
        let now = MonotonicClock.nowMicroseconds()
        client.connectedAt = now
        client.lastDrained = now
        do {
            client.loopToken = try loop.register(fd, for: .readable) { [unowned self] readiness in
                clientReady(client, readiness)
            }
        } catch {
            logger.warning("client \(client.id): \(error)")
            client.close()
            return
        }
        clients[client.id] = client
        // Logged before the hello goes out: a client that is gone already is then logged in order.
        logger.info(
            "client \(client.id) connected: pid \(credentials.pid) uid \(credentials.uid)\(permissions.changeScene ? " (may change the scene)" : "")"
        )
        let devices = sources.keys.sorted().compactMap { sources[$0]?.summary }
        reply(
            ServerMessages.hello(
                server: options.serverName + " " + Self.version, protocolVersion: Self.protocolVersion,
                devices: devices,
                scene: scene, sceneVersion: sceneVersion, permissions: permissions), to: client)
        flush(client)
        reportStatus()
        scheduleHousekeeping(at: now + idleTimeout)
    }

    public static let version = "0.1.0"

    var idleTimeout: Int64 { Int64(config.clients.idleTimeoutSeconds) * 1_000_000 }

    func clientReady(_ client: ClientConnection, _ readiness: Readiness) {
        if client.interest.contains(.readable) && (readiness.contains(.readable) || readiness.contains(.hangup)) {
            if client.readPending() == .closed {
                // End of input: what it sent is still answered; the connection closes once that is delivered.
                client.inputClosed = true
            }
        } else if readiness.contains(.hangup) {
            // Not being read (its requests wait, or its input ended) and gone altogether.
            disconnect(client, reason: "closed the connection")
            return
        }
        serve(client)
    }

    /// Answers the client's waiting requests in order, flushing as it goes, until none is left or the socket is
    /// full (writability wakes the loop to go on). Only here are requests handled, never from inside a flush: a
    /// request that changes the scene flushes every client, this one included, and must not start the next
    /// request of the same client inside its own handling (replies out of order, unbounded recursion).
    func serve(_ client: ClientConnection) {
        while clients[client.id] != nil {
            handlePending(of: client)
            guard clients[client.id] != nil else { return }
            flush(client)
            guard client.hasPendingItems && client.queue.isUnderLowWater && clients[client.id] != nil else { return }
        }
    }

    /// Handles waiting requests until none is left or the client's replies pile up (backpressure: its requests
    /// then wait, and the socket is not read, until it reads its replies).
    func handlePending(of client: ClientConnection) {
        while !client.isBackpressured, clients[client.id] != nil, let item = client.nextPendingItem() {
            client.hasBeenActive = true
            handle(item, from: client)
        }
    }

    func handle(_ item: LineFramer.Item, from client: ClientConnection) {
        switch item {
        case .oversized(let length):
            reply(
                ServerMessages.error(
                    id: nil,
                    RequestError(
                        .lineTooLong,
                        "a line of \(length) bytes exceeds the limit of \(config.clients.maximumLineBytes)")),
                to: client)
        case .line(let bytes):
            let (id, result) = RequestDecoder.decode(bytes)
            switch result {
            case .failure(let error):
                reply(ServerMessages.error(id: id, error), to: client)
            case .success(let request):
                handle(request, id: id, from: client)
            }
        }
    }

    func handle(_ request: Request, id: RequestID?, from client: ClientConnection) {
        if request.changesScene && !client.permissions.changeScene {
            reply(
                ServerMessages.error(
                    id: id, RequestError(.permissionDenied, "uid \(client.credentials.uid) may not change the scene")),
                to: client)
            return
        }
        switch request {
        case .ping:
            reply(ServerMessages.ok(id: id) { $0.field("pong", true) }, to: client)
        case .subscribe(let subscription):
            client.subscription = subscription
            reply(ServerMessages.ok(id: id), to: client)
            if options.replayWaitsForSubscribers > 0
                && clients.values.filter({ $0.subscription != nil }).count >= options.replayWaitsForSubscribers
            {
                startReplay()
            }
        case .unsubscribe:
            client.subscription = nil
            reply(ServerMessages.ok(id: id), to: client)
        case .devices:
            let summaries = sources.keys.sorted().compactMap { sources[$0]?.summary }
            reply(
                ServerMessages.ok(id: id) { writer in
                    writer.beginArray("devices")
                    for device in summaries { ServerMessages.writeDevice(device, into: &writer) }
                    writer.endArray()
                }, to: client)
        case .getScene:
            let json = SceneEncoder.encode(dispatcher.index.scene)
            reply(ServerMessages.ok(id: id) { $0.rawField("scene", json) }, to: client)
        case .setScene(let newScene):
            install(newScene, source: "client \(client.id)")
            reply(ServerMessages.ok(id: id) { $0.field("version", self.sceneVersion) }, to: client)
        case .addRegion(let parent, let region):
            edit(id: id, client: client) { scene throws(SceneEditor.EditError) in
                try SceneEditor.addRegion(region, parent: parent, to: scene)
            }
        case .updateRegion(let regionID, let fields):
            edit(id: id, client: client) { scene throws(SceneEditor.EditError) in
                try SceneEditor.updateRegion(regionID, fields: fields, in: scene)
            }
        case .removeRegion(let regionID):
            edit(id: id, client: client) { scene throws(SceneEditor.EditError) in
                try SceneEditor.removeRegion(regionID, from: scene)
            }
        }
    }

    private func edit(
        id: RequestID?, client: ClientConnection, _ change: (Scene) throws(SceneEditor.EditError) -> Scene
    ) {
        do throws(SceneEditor.EditError) {
            install(try change(dispatcher.index.scene), source: "client \(client.id)")
            reply(ServerMessages.ok(id: id) { $0.field("version", self.sceneVersion) }, to: client)
        } catch {
            let code: RequestError.Code
            switch error {
            case .notFound: code = .notFound
            case .invalid, .forbidden: code = .invalidScene
            }
            reply(ServerMessages.error(id: id, RequestError(code, error.description)), to: client)
        }
    }

    /// Queues the answer to a client's request: never dropped; bounded by backpressure, not by the queue limit.
    func reply(_ bytes: [UInt8], to client: ClientConnection) {
        _ = client.enqueue(bytes, kind: .reply)
    }

    func send(_ bytes: [UInt8], to client: ClientConnection, kind: OutboundQueue.Kind) {
        switch client.enqueue(bytes, kind: kind) {
        case .queued:
            break
        case .coalesced(let dropped):
            logger.debug("client \(client.id) is slow: \(dropped) superseded lines dropped")
        case .overflow:
            disconnect(client, reason: "did not read: its queue of \(config.clients.queueBytes) bytes overflowed")
        }
    }

    /// Writes what the client's socket takes and sets what the loop watches for it. Handles no request.
    func flush(_ client: ClientConnection) {
        guard clients[client.id] != nil else { return }
        let queued = client.queue.byteCount
        guard client.flush() else {
            disconnect(client, reason: "the connection failed")
            return
        }
        if client.queue.byteCount < queued || client.queue.isEmpty {
            client.lastDrained = MonotonicClock.nowMicroseconds()
        }
        if client.inputClosed && !client.hasPendingItems && client.queue.isEmpty {
            disconnect(client, reason: "closed the connection")
            return
        }
        var interest: Readiness = []
        if !client.inputClosed && !client.isBackpressured && !client.hasPendingItems { interest.insert(.readable) }
        // Waiting requests are served when the socket can take their replies: with an empty queue that is at once,
        // on the loop's next turn (`serve`).
        if !client.queue.isEmpty || client.hasPendingItems { interest.insert(.writable) }
        if interest != client.interest {
            client.interest = interest
            try? loop.modify(client.loopToken, interest: interest)
        }
        if client.isStalled { scheduleHousekeeping(at: client.lastDrained + idleTimeout) }
    }

    func flushClients() {
        for client in Array(clients.values) { flush(client) }
    }

    // MARK: Idle and stalled connections

    func scheduleHousekeeping(at deadline: Int64) {
        if let armed = housekeeping?.deadline, armed <= deadline { return }
        housekeeping?.arm(at: deadline)
    }

    /// Closes connections that never subscribed nor asked anything, and those whose replies have waited a whole
    /// timeout without the client reading any; re-arms for the next such deadline.
    func housekeep() {
        let now = MonotonicClock.nowMicroseconds()
        var next: Int64?
        for client in clients.values.sorted(by: { $0.id < $1.id }) {
            if !client.hasBeenActive && client.subscription == nil {
                let deadline = client.connectedAt + idleTimeout
                if deadline <= now {
                    _ = client.enqueue(
                        ServerMessages.goodbye(
                            code: "idle",
                            message: "no request in \(config.clients.idleTimeoutSeconds) s after connecting"),
                        kind: .reply)
                    _ = client.flush()
                    disconnect(client, reason: "idle: no request in \(config.clients.idleTimeoutSeconds) s")
                    continue
                }
                next = min(next ?? deadline, deadline)
            }
            if client.isStalled {
                let deadline = client.lastDrained + idleTimeout
                if deadline <= now {
                    disconnect(
                        client, reason: "did not read its replies for \(config.clients.idleTimeoutSeconds) s")
                    continue
                }
                next = min(next ?? deadline, deadline)
            }
        }
        housekeeping?.arm(at: next)
    }

    func disconnect(_ client: ClientConnection, reason: String) {
        guard clients.removeValue(forKey: client.id) != nil else { return }
        loop.deregister(client.loopToken)
        client.close()
        reportStatus()
        logger.info("client \(client.id) disconnected: \(reason)")
    }

    // MARK: Fan-out

    /// Encodes each event once and queues it for every subscriber whose filter admits it.
    func broadcast(_ events: [DispatchEvent]) {
        // Nothing to encode when nobody listens (clients that only made requests get no events).
        guard !events.isEmpty else { return }
        let subscribers = clients.values.filter { $0.subscription != nil }
        guard !subscribers.isEmpty else { return }
        for event in events {
            writer.reset()
            DispatchEventEncoder.encode(event, into: &writer)
            let route = EventRoute(event)
            let bytes = writer.bytes
            for client in subscribers where !client.isClosed {
                guard let subscription = client.subscription, subscription.admits(route) else { continue }
                send(bytes, to: client, kind: route.queueKind)
            }
        }
    }

    /// Sends a notice (device, scene) to subscribers of that kind.
    func notify(_ bytes: [UInt8], kind: EventKind) {
        for client in Array(clients.values) {
            guard let subscription = client.subscription, subscription.admits(kind) else { continue }
            send(bytes, to: client, kind: .essential)
        }
        flushClients()
    }

    // MARK: Scene

    func install(_ newScene: Scene, source: String) {
        let now = EventTime(microseconds: MonotonicClock.nowMicroseconds())
        let resized = newScene.width != scene.width || newScene.height != scene.height
        scene = newScene
        sceneVersion += 1
        broadcast(dispatcher.replaceScene(newScene, at: now))
        if resized { for source in sources.values { source.resize(to: (newScene.width, newScene.height)) } }
        notify(ServerMessages.sceneChanged(newScene, version: sceneVersion, source: source), kind: .scene)
        logger.notice(
            "scene version \(sceneVersion) from \(source): \(SceneIndex(scene: newScene).nodes.count) region(s)")
        rearmTimer()
    }

    func reloadScene(reason: String) {
        guard let path = options.scenePath ?? config.scenePath else {
            logger.info("\(reason): no scene file configured")
            return
        }
        do {
            install(try Self.loadScene(path), source: "\(path) (\(reason))")
        } catch {
            logger.error("\(reason): scene not reloaded, the old one stays in force: \(error)")
        }
    }
}
