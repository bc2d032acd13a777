import Foundation
import Synchronization
import TouchClient
import TouchPosix
import TouchScene
import TouchView

/// The view's state, shared between the thread that reads the socket and the thread that draws: the reader
/// applies each message under the lock and wakes the drawer, which copies the state under the lock and draws
/// outside it. So reading never waits for a frame to be drawn, and a frame never waits for the socket.
final class SharedView: Sendable {
    let state: Mutex<ViewState>
    let wakeup: WakeupPipe
    /// Set when the drawer has been woken and has not yet looked: one write to the pipe per look, not per event.
    private let woken = Atomic<Bool>(false)

    init(_ initial: ViewState) throws(SystemError) {
        state = Mutex(initial)
        wakeup = try WakeupPipe()
    }

    func update(_ change: (inout ViewState) -> Bool) {
        guard state.withLock({ change(&$0) }) else { return }
        if !woken.exchange(true, ordering: .acquiringAndReleasing) { wakeup.wake() }
    }

    /// The drawer is looking now: later changes wake it again. The pipe is emptied before the flag is cleared: the
    /// other way round, a wake-up written in between would be drained while the flag stayed set, and no change
    /// after it would ever wake the drawer again: the view would freeze (scripts/view-test.sh watches for it).
    func acknowledgeWakeup() {
        wakeup.drain()
        woken.store(false, ordering: .sequentiallyConsistent)
    }
}

/// Reads the daemon's messages on a thread of its own, for as long as the connection lasts.
enum MessageReader {
    /// The client passes to the reader thread, which is its only user from then on.
    private final class Handoff: @unchecked Sendable {
        let client: TouchClient
        init(_ client: TouchClient) { self.client = client }
    }

    static func start(client: TouchClient, shared: SharedView) {
        let handoff = Handoff(client)
        let thread = Thread {
            read(handoff.client, into: shared)
        }
        thread.name = "touchctl view reader"
        thread.start()
    }

    private static func read(_ client: TouchClient, into shared: SharedView) {
        while true {
            let message: Message?
            do {
                message = try client.next()
            } catch {
                shared.update { $0.end("\(error)") }
                return
            }
            guard let message else {
                shared.update { $0.end("touchd closed the connection") }
                return
            }
            if case .sceneChanged = message {
                // The notice carries only the scene's size and version; the regions come with get-scene.
                do {
                    let scene = try fetchScene(client)
                    shared.update { state in
                        state.setScene(scene)
                        return true
                    }
                } catch {
                    shared.update { $0.end("after a scene change: \(error)") }
                    return
                }
            }
            shared.update { $0.apply(message) }
            if case .goodbye = message { return }
        }
    }

    /// The scene in force, as the daemon has it now (dragged regions where they are).
    static func fetchScene(_ client: TouchClient) throws -> Scene {
        let reply = try client.request(op: "get-scene")
        guard reply.ok, let scene = reply.json["scene"] else {
            throw ViewError.noScene(reply.errorMessage ?? "the reply to get-scene has no scene")
        }
        return try SceneLoader.parse(scene.compactJSON, file: "the daemon's scene")
    }
}

enum ViewError: Error, CustomStringConvertible {
    case noScene(String)
    case notATerminal

    var description: String {
        switch self {
        case .noScene(let reason): "cannot get the scene: \(reason)"
        case .notATerminal: "view needs a terminal on standard input and output"
        }
    }

    var exitStatus: Int32 {
        switch self {
        case .noScene: ExitStatus.unavailable
        case .notATerminal: ExitStatus.usage
        }
    }
}
