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
        if settings.dispatches {
            dispatchBuffer.append(contentsOf: dispatcher.replaceScene(newScene, at: now))
            broadcastDispatched()
        }
        if resized { for device in devices.values { device.resize(to: (newScene.width, newScene.height)) } }
        notify(ServerMessages.sceneChanged(newScene, version: sceneVersion, source: source), kind: .scene)
        log(
            .notice,
            "scene version \(sceneVersion) from \(source): \(SceneIndex(scene: newScene).nodes.count) region(s)")
        reportStatus()
    }

    /// The scene file was read again (`reason`: SIGHUP, the file changed): a scene that does not load leaves the
    /// one in force as it is.
    public func reloadScene(_ result: Result<Scene, SceneError>, path: String, reason: String, at time: EventTime) {
        switch result {
        case .success(let newScene):
            install(newScene, source: "\(path) (\(reason))", at: time)
        case .failure(let error):
            log(.error, "\(reason): scene not reloaded, the old one stays in force: \(error)")
        }
    }
}
