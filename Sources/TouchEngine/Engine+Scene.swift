import TouchCore
import TouchScene
import TouchWire

extension Engine {
    /// Puts a new scene in force: fingers on regions that are gone, hidden or disabled end with cancel, devices
    /// map to the new size, and subscribers of `scene` are told.
    public func install(_ newScene: Scene, source: String, at time: EventTime) {
        now = max(now, time)
        install(newScene, source: source)
    }

    func install(_ newScene: Scene, source: String) {
        let resized = newScene.width != scene.width || newScene.height != scene.height
        scene = newScene
        sceneVersion += 1
        requestWork = .wholeScene
        if settings.dispatches {
            dispatchBuffer.append(contentsOf: dispatcher.replaceScene(newScene, at: now))
            broadcastDispatched()
        }
        forgetTransientRegions(notIn: newScene)
        if resized { for device in devices.values { device.resize(to: (newScene.width, newScene.height)) } }
        announceSceneChange(source: source)
    }

    /// Tells subscribers of `scene`, the log and the status line that the scene in force changed.
    func announceSceneChange(source: String) {
        let regions = settings.dispatches ? dispatcher.index.nodes.count : scene.regionCount
        notify(
            ServerMessages.sceneChanged(scene, version: sceneVersion, source: source, regions: regions), kind: .scene)
        log(.notice, "scene version \(sceneVersion) from \(source): \(regions) region(s)")
        reportStatus()
    }

    /// The scene file was read again (`reason`: SIGHUP, the file changed): a scene that does not load leaves the
    /// one in force as it is.
    public func reloadScene(_ result: Result<Scene, SceneError>, path: String, reason: String, at time: EventTime) {
        switch result {
        case .success(let newScene):
            // The file's regions are the file's, even one with the id of a client's transient region: no client's
            // close may remove them.
            for client in clients.values { client.transientRegions.removeAll() }
            closedTransientRegions.removeAll()
            install(newScene, source: "\(path) (\(reason))", at: time)
        case .failure(let error):
            log(.error, "\(reason): scene not reloaded, the old one stays in force: \(error)")
        }
    }

    /// A transient region belongs to its client as the region it added, not as an id: once that region has left the
    /// scene (removed by another client, its parent removed, a set-scene without it), a region that later comes
    /// with the same id is not the client's, and its close must not remove it.
    func forgetTransientRegions(notIn newScene: Scene) {
        let owners = clients.values.filter { !$0.transientRegions.isEmpty }
        guard !owners.isEmpty || !closedTransientRegions.isEmpty else { return }
        let index = settings.dispatches ? dispatcher.index : SceneIndex(scene: newScene)
        for client in owners { client.transientRegions.removeAll { index.index(of: $0) == nil } }
        for position in closedTransientRegions.indices {
            closedTransientRegions[position].regions.removeAll { index.index(of: $0) == nil }
        }
    }
}
