import TouchCore
import TouchGestures

/// Taking fingers back from the compositor (a gesture's `takeFingers`, Android's `pilferPointers`): once a taking
/// gesture is recognized (or, with `all-down`, has all its fingers), every finger it follows is marked taken, and
/// so is every later finger that goes down into it while it lasts. The engine cancels the taken fingers it had
/// forwarded on the device's virtual touchscreen (`takeTakenFingers`) and forwards no taken finger at its down
/// (`claims`). touchd's own clients see every finger throughout: taking concerns the compositor alone.
extension Dispatcher {
    /// Whether a gesture took fingers since the engine last asked: asked after every frame, where taking is rare.
    public var hasTakenFingers: Bool { !newlyTaken.isEmpty }

    /// Fingers taken since the last call, each once, in the order they were taken: the engine cancels those it
    /// forwarded.
    public func takeTakenFingers() -> [FingerKey] {
        guard !newlyTaken.isEmpty else { return [] }
        defer { newlyTaken.removeAll(keepingCapacity: true) }
        return newlyTaken
    }

    /// A report of `member`: a taking gesture recognized takes its fingers once the finger event that made it
    /// is handled (`applyDueTakes`): reports arrive while the finger table is being changed in place.
    func noteTaking(_ report: GestureArena.Report) {
        noteTaking(member: report.member, report.event.event)
    }

    func noteTaking(member: Int, _ state: GestureEventKind) {
        guard withArena({ $0.takesFingers(member) }) != .never else { return }
        switch state {
        case .began, .ended: takesDue.append(member)
        case .pressing, .changed, .failed, .cancelled: break
        }
    }

    /// Takes the fingers of the gestures recognized during the event just handled.
    func applyDueTakes() {
        guard !takesDue.isEmpty else { return }
        let due = takesDue
        takesDue.removeAll(keepingCapacity: true)
        for member in due { take(for: member) }
    }

    /// A finger's down has been delivered (and stored): it is taken when a gesture it feeds has already taken its
    /// fingers and is not over, and it completes an `all-down` gesture's fingers, which takes them all.
    func noteTakingAtDown(of key: FingerKey) {
        guard let state = fingers[key], !state.recognizers.isEmpty else { return }
        for member in state.recognizers {
            let takes = arena.takesFingers(member)
            guard takes != .never, !arena.isFinished(member) else { continue }
            let fingers = arena.fingers(of: member)
            guard fingers.contains(key) else { continue }
            if takingMembers.contains(member), fingers.keys.contains(where: { isTaken($0) && $0 != key }) {
                // Still the sequence that took: a gesture that reset for a new touch has no taken finger.
                mark(key)
            } else if takes == .allDown, fingers.count >= arena.spec(of: member).fingers {
                take(for: member)
            }
        }
    }

    private func take(for member: Int) {
        // The members whose gestures are over no longer take later fingers.
        takingMembers.removeAll { arena.isFinished($0) && arena.fingers(of: $0).isEmpty }
        if !takingMembers.contains(member) { takingMembers.append(member) }
        for key in arena.fingers(of: member).keys { mark(key) }
    }

    private func isTaken(_ key: FingerKey) -> Bool { fingers[key]?.taken == true }

    private func mark(_ key: FingerKey) {
        guard let position = fingers.position(of: key), !fingers[position: position].taken else { return }
        fingers[position: position].taken = true
        newlyTaken.append(key)
    }
}
