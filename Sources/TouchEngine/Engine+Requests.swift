import TouchCore
import TouchJSON
import TouchScene
import TouchWire

extension Engine {
    func handle(_ item: LineFramer.Item, from client: ClientState) {
        switch item {
        case .oversized(let length):
            let limit = settings.maximumLineBytes
            reply(
                ServerMessages.error(
                    id: nil, RequestError(.lineTooLong, "a line of \(length) bytes exceeds the limit of \(limit)")),
                to: client)
        case .line(let bytes):
            let (id, result) = RequestDecoder.decode(
                bytes, refusingSceneChangesOf: client.permissions.changeScene ? nil : client.credentials.uid)
            switch result {
            case .failure(let error):
                reply(ServerMessages.error(id: id, error), to: client)
            case .success(let request):
                handle(request, id: id, from: client)
            }
        }
    }

    func handle(_ request: Request, id: RequestID?, from client: ClientState) {
        if request.changesScene && !client.permissions.changeScene {
            reply(ServerMessages.error(id: id, RequestDecoder.sceneRefusal(uid: client.credentials.uid)), to: client)
            return
        }
        switch request {
        case .ping:
            reply(ServerMessages.ok(id: id) { $0.field("pong", true) }, to: client)
        case .subscribe(let subscription):
            if client.subscription == nil { subscribers.append(client) }
            client.subscription = subscription
            reply(ServerMessages.ok(id: id), to: client)
        case .unsubscribe:
            if client.subscription != nil { subscribers.removeAll { $0 === client } }
            client.subscription = nil
            reply(ServerMessages.ok(id: id), to: client)
        case .devices:
            let summaries = deviceSummariesWithCounts
            reply(
                ServerMessages.ok(id: id) { writer in
                    writer.beginArray("devices")
                    for device in summaries { ServerMessages.writeDevice(device, into: &writer) }
                    writer.endArray()
                }, to: client)
        case .reload:
            // The adapter reads the scene file and puts it in force, and reads the configuration.
            requestWork = .wholeScene
            effects.append(.reload(source: "client \(client.id)"))
            reply(ServerMessages.ok(id: id), to: client)
        case .getScene:
            requestWork = .wholeScene
            let json = SceneEncoder.encode(dispatcher.index.scene)
            reply(ServerMessages.ok(id: id) { $0.rawField("scene", json) }, to: client)
        case .setScene(let newScene):
            // Every region of the new scene is this client's request's, even one with the id of another client's
            // transient region: no close may remove it.
            for other in clients.values { other.transientRegions.removeAll() }
            for position in closedTransientRegions.indices { closedTransientRegions[position].regions.removeAll() }
            install(newScene, source: "client \(client.id)")
            reply(ServerMessages.ok(id: id) { $0.field("version", self.sceneVersion) }, to: client)
        case .addRegion(let parent, let region, let transient):
            let added = edit(id: id, client: client) { index throws(SceneEditor.EditError) in
                try SceneEditor.addRegion(region, parent: parent, to: index)
            }
            if added, case .string(let regionID, _)? = region["id"] {
                // Its own id again (added before, then removed) must not be listed twice, nor stay if now permanent.
                client.transientRegions.removeAll { $0 == regionID }
                if transient { client.transientRegions.append(regionID) }
            }
        case .updateRegion(let regionID, let fields):
            // New children replace the old ones: a transient region among those is gone, whatever id comes back.
            let replaced = fields["children"] == nil ? [] : descendantIDs(of: regionID)
            let updated =
                SceneEditor.mayUpdateInPlace(fields) && settings.dispatches
                ? update(regionID, fields: fields, id: id, client: client)
                : edit(id: id, client: client) { index throws(SceneEditor.EditError) in
                    try SceneEditor.updateRegion(regionID, fields: fields, in: index)
                }
            if updated && !replaced.isEmpty { forgetTransientRegions(replaced) }
        case .removeRegion(let regionID):
            let removed = edit(id: id, client: client) { index throws(SceneEditor.EditError) in
                try SceneEditor.removeRegion(regionID, from: index)
            }
            if removed { client.transientRegions.removeAll { $0 == regionID } }
        }
    }

    /// Makes a scene edit and replies; returns whether the edit was made.
    @discardableResult
    private func edit(
        id: RequestID?, client: ClientState, _ change: (SceneIndex) throws(SceneEditor.EditError) -> Scene
    ) -> Bool {
        do throws(SceneEditor.EditError) {
            install(try change(dispatcher.index), source: "client \(client.id)")
            reply(ServerMessages.ok(id: id) { $0.field("version", self.sceneVersion) }, to: client)
            return true
        } catch {
            reply(ServerMessages.error(id: id, RequestError(Self.code(of: error), error.description)), to: client)
            return false
        }
    }

    /// An update that keeps the region's gestures, relations and children, made in place: the rest of the scene is
    /// neither read nor rebuilt, so its cost follows the region, not the scene.
    private func update(_ regionID: String, fields: JSONValue, id: RequestID?, client: ClientState) -> Bool {
        do throws(SceneEditor.EditError) {
            let update = try SceneEditor.regionUpdate(regionID, fields: fields, in: dispatcher.index)
            if let events = dispatcher.replaceRegion(update.node, with: update.region, at: now) {
                SceneEditor.modify(&scene.regions, at: update.path[...]) { $0 = update.region }
                sceneVersion += 1
                requestWork = .regionEdit(sceneRegions: dispatcher.index.nodes.count)
                dispatchBuffer.append(contentsOf: events)
                broadcastDispatched()
                announceSceneChange(source: "client \(client.id)")
            } else {
                var newScene = dispatcher.index.scene
                SceneEditor.modify(&newScene.regions, at: update.path[...]) { $0 = update.region }
                install(newScene, source: "client \(client.id)")
            }
            reply(ServerMessages.ok(id: id) { $0.field("version", self.sceneVersion) }, to: client)
            return true
        } catch {
            reply(ServerMessages.error(id: id, RequestError(Self.code(of: error), error.description)), to: client)
            return false
        }
    }

    static func code(of error: SceneEditor.EditError) -> RequestError.Code {
        switch error {
        case .notFound: .notFound
        case .invalid, .forbidden: .invalidScene
        }
    }

    /// The ids of the regions below `regionID` in the scene in force.
    private func descendantIDs(of regionID: String) -> Set<String> {
        let index = dispatcher.index
        guard let node = index.index(of: regionID) else { return [] }
        var ids: Set<String> = []
        var stack = index.nodes[node].children
        while let current = stack.popLast() {
            ids.insert(index.nodes[current].id)
            stack.append(contentsOf: index.nodes[current].children)
        }
        return ids
    }

    /// Ends the transient arrangements for these ids: their regions have left the scene.
    private func forgetTransientRegions(_ ids: Set<String>) {
        for other in clients.values { other.transientRegions.removeAll { ids.contains($0) } }
        for position in closedTransientRegions.indices {
            closedTransientRegions[position].regions.removeAll { ids.contains($0) }
        }
    }

    /// Removes the transient regions of clients that closed (those still in the scene: another client or a reload
    /// may have removed some), in one scene change per client.
    func removeClosedTransientRegions() {
        let closed = closedTransientRegions
        closedTransientRegions.removeAll()
        for (clientID, regions) in closed {
            // One edit for all of them: removing a thousand one at a time re-read the whole scene a thousand times
            // while the daemon waited (85 s for 2,000 in a debug build).
            guard let (scene, removed, dropped) = SceneEditor.removeRegions(regions, from: dispatcher.index) else {
                continue
            }
            for relation in dropped {
                log(.warning, "client \(clientID) closed: \(relation), a transient region of that client")
            }
            install(
                scene, source: "client \(clientID) closed (its transient regions \(removed.joined(separator: ", ")))")
        }
    }
}
