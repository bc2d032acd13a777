import TouchCore
import TouchGestures

/// Drag to move: a `draggable` region follows the first finger that went down on it, keeping the offset from
/// where that finger went down; clients hear `region-moved`.
extension Dispatcher {
    /// Claims the region for the finger going down on it, unless another finger drags it already.
    func claimDrag(of target: Int, by key: FingerKey, _ state: inout FingerState) {
        guard index.nodes[target].region.draggable && dragDrivers[target] == nil else { return }
        dragDrivers[target] = key
        state.dragOrigin = index.nodes[target].region.frame.origin
    }

    func followDrag(_ state: FingerState, _ mapped: MappedFingerEvent, key: FingerKey) {
        guard let target = state.target, dragDrivers[target] == key, let origin = state.dragOrigin,
            mapped.event.phase == .move
        else { return }
        let moved = origin + (mapped.position - state.downLocation)
        guard moved != index.nodes[target].region.frame.origin else { return }
        index.moveRegion(target, toOrigin: moved)
        let node = index.nodes[target]
        out.append(.regionMoved(region: node.internedID, frame: node.region.frame, time: mapped.event.time))
    }

    func releaseDrag(of target: Int, by key: FingerKey) {
        if dragDrivers[target] == key { dragDrivers[target] = nil }
    }
}
