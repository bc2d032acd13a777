import TouchCore

extension Dispatcher {
    /// Puts an edited region in force in place, as `replaceScene` would with the scene holding it, without
    /// rebuilding the index or the arena: for an edit that keeps the region's id, gestures, relations and children
    /// (`region.children` are the node's children as they stand). Fingers on a region of its subtree that can no
    /// longer take touches get `cancel`; the others, and every recognizer, carry on. Nil when the edit is not of
    /// that kind: the caller replaces the scene.
    public func replaceRegion(_ node: Int, with region: Region, at time: EventTime) -> [DispatchEvent]? {
        let old = index.nodes[node]
        guard region.id == old.id, region.gestures == old.region.gestures,
            region.simultaneous == old.region.simultaneous, region.sequenced == old.region.sequenced,
            region.children.map(\.id) == old.children.map({ index.nodes[$0].id })
        else { return nil }
        defer { knownDeadline = nil }
        let subtree = Set(SceneEditor.descendants(of: node, in: index))
        let held = fingers.keys.sorted().filter { key in
            fingers[key].map { !$0.dead && $0.target.map(subtree.contains) == true } ?? false
        }
        // A cancel describes the region as it was, as `replaceScene` does; the copy is made only for such fingers.
        let before = held.isEmpty ? nil : index
        index.replaceRegion(node, with: region)
        if let before {
            for key in held {
                guard var state = fingers[key], let target = state.target, !index.nodes[target].eligible else {
                    continue
                }
                end(&state, key: key, region: target, in: before, at: time, owner: arena.owner(of:)) {
                    self.arena.release(key, from: $0, at: time)
                }
                fingers[key] = state
            }
            settleHeldGestures(at: time)
        }
        reanchorScrollDrivers { $0 }
        return takeOutput()
    }
}
