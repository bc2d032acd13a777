import TouchCore
import TouchGestures

extension Dispatcher {
    /// Installs a new scene. Fingers keep their regions where those still exist and can take touches; the others
    /// get `cancel`. Recognizers of regions whose gestures did not change carry over, mid-gesture.
    public func replaceScene(_ scene: Scene, at time: EventTime) -> [DispatchEvent] {
        defer { knownDeadline = nil }
        let oldIndex = index
        let oldRecognizers = recognizersByNode
        let oldArena = arena
        index = SceneIndex(scene: scene)
        var carried: [String: [Int]] = [:]
        for (node, members) in oldRecognizers.enumerated() {
            let oldRegion = oldIndex.nodes[node].region
            guard let newNode = index[oldRegion.id], newNode.region.gestures == oldRegion.gestures,
                newNode.region.simultaneous == oldRegion.simultaneous, newNode.region.sequenced == oldRegion.sequenced
            else { continue }
            carried[oldRegion.id] = members
        }
        // Where each of the old arena's recognizers is in the new one, when it was carried over: from here on what
        // happens to it happens there.
        let carriedTo = makeArena(carrying: carried, from: oldArena)
        linkRelations()
        // Members are indices into the arena just replaced: a taking gesture carried over goes on taking the fingers
        // that land in it, one not carried over takes no more; a taken finger stays taken.
        takingMembers = takingMembers.compactMap { carriedTo[$0] }
        takesDue = takesDue.compactMap { carriedTo[$0] }

        for key in fingers.keys.sorted() {
            guard var state = fingers[key], !state.dead else { continue }
            let oldTarget = state.target
            let newTarget = oldTarget.flatMap { index.index(of: oldIndex.nodes[$0].id) }
            if let oldTarget, newTarget == nil || !index.nodes[newTarget!].eligible {
                end(&state, key: key, region: oldTarget, in: oldIndex, at: time, owner: oldArena.owner(of:)) {
                    member in
                    // Released, not only failed: a recognizer carried into the new arena must reset at its next touch.
                    if let position = carriedTo[member] { return self.arena.release(key, from: position, at: time) }
                    return oldArena.release(key, from: member, at: time)
                }
                fingers[key] = state
                continue
            }
            state.target = newTarget
            state.container = state.container.flatMap { index.index(of: oldIndex.nodes[$0].id) }
            var kept: [Int] = []
            for member in state.recognizers {
                if let position = carriedTo[member] {
                    kept.append(position)
                } else {
                    // A bubbled gesture's events name the region whose gesture it is, not the finger's.
                    let owner = oldIndex.nodes[oldArena.owner(of: member)].internedID
                    for event in oldArena.forceFail(member, at: time) { out.append(.gesture(region: owner, event)) }
                }
            }
            state.recognizers = kept
            fingers[key] = state
        }
        settleHeldGestures(at: time)
        dragDrivers = Dictionary(
            uniqueKeysWithValues: dragDrivers.compactMap { node, key in
                index.index(of: oldIndex.nodes[node].id).map { ($0, key) }
            })
        reanchorScrollDrivers { index.index(of: oldIndex.nodes[$0].id) }
        tapHistory = Dictionary(
            uniqueKeysWithValues: tapHistory.compactMap { node, record in
                index.index(of: oldIndex.nodes[node].id).map { ($0, record) }
            })
        return takeOutput()
    }

    /// A finger whose region went away or can no longer take touches: one cancel, then silence.
    /// `release` lets go of the finger in the recognizer of the given index of `state.recognizers` and returns what it
    /// reports; `owner` gives that recognizer's node in `regionIndex`, whose region its reports name (a gesture
    /// bubbled from an ancestor is the ancestor's, as all its other events are).
    func end(
        _ state: inout FingerState, key: FingerKey, region: Int, in regionIndex: SceneIndex, at time: EventTime,
        owner: (Int) -> Int, release: (Int) -> [GestureEvent]
    ) {
        if state.deliverAt == nil && !state.silent {
            let last = MappedFingerEvent(
                event: FingerEvent(
                    phase: .cancel, finger: state.finger, slot: state.slot, time: time, contact: state.lastContact),
                position: state.lastLocation)
            out.append(.touch(touchEvent(state, last, regionNode: region, in: regionIndex)))
        }
        for member in state.recognizers {
            let gestureRegion = regionIndex.nodes[owner(member)].internedID
            for event in release(member) { out.append(.gesture(region: gestureRegion, event)) }
        }
        state.dead = true
        // A dead finger drags nothing: the region (if it comes back) is free for the next finger.
        dragDrivers = dragDrivers.filter { $0.value != key }
        scrollDrivers = scrollDrivers.filter { $0.value.key != key }
        state.recognizers = []
        state.withheld = []
        state.deliverAt = nil
    }

    /// A container that still scrolls keeps its finger, from the new scene's offset on (`node`: where an old
    /// container's node is now, nil when it is gone).
    func reanchorScrollDrivers(_ node: (Int) -> Int?) {
        scrollDrivers = Dictionary(
            uniqueKeysWithValues: scrollDrivers.compactMap { old, drive in
                node(old).flatMap { new in
                    index.nodes[new].region.scroll.map { scroll in
                        (
                            new,
                            ScrollDrive(
                                key: drive.key, startOffset: scroll.offset,
                                origin: fingers[drive.key]?.lastLocation ?? drive.origin)
                        )
                    }
                }
            })
    }
}
