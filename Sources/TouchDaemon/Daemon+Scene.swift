import TouchEngine
import TouchPosix
import TouchScene

extension Daemon {
    /// Reloads on a change of the scene file: editors save in several steps (write, rename, chmod), so once,
    /// 100 ms after the last one.
    func watchSceneFile() throws {
        guard let scenePath = options.scenePath ?? config.scenePath else { return }
        let settle = try LoopTimer(loop: loop) { [unowned self] in reloadScene(reason: "the scene file changed") }
        sceneSettle = settle
        sceneWatch = try? FileWatch(loop: loop, path: scenePath) {
            settle.arm(at: MonotonicClock.nowMicroseconds() + 100_000)
        }
    }

    func reloadScene(reason: String) {
        guard let path = options.scenePath ?? config.scenePath else {
            logger.info("\(reason): no scene file configured")
            return
        }
        let result: Result<Scene, SceneError>
        do {
            result = .success(try Self.loadScene(path))
        } catch {
            result = .failure(error)
        }
        engine.reloadScene(result, path: path, reason: reason, at: now)
        pump()
    }
}
