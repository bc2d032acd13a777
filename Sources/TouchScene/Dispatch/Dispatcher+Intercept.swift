import TouchCore
import TouchGestures

/// Scroll containers (`intercept`): once a descendant's finger moves beyond the container's slop, the container
/// takes the finger; the child gets `cancel` (or, with a delay, never hears of it).
extension Dispatcher {
    func intercept(_ state: inout FingerState, by container: Int, key: FingerKey, at time: EventTime) {
        let containerChain = Set(index.chain(from: container))
        let delivered = state.deliverAt == nil
        if delivered, let target = state.target {
            // The child already has the finger: it gets one cancel, its own recognizers too, which let go of the finger
            // and reset at their next touch.
            let cancel = MappedFingerEvent(
                event: FingerEvent(
                    phase: .cancel, finger: state.finger, slot: state.slot, time: time, contact: state.lastContact),
                position: state.lastLocation)
            if !state.silent { out.append(.touch(touchEvent(state, cancel, regionNode: target, in: index))) }
            for member in state.recognizers where !containerChain.contains(arena.owner(of: member)) {
                for event in arena.release(key, from: member, at: time) {
                    out.append(.gesture(region: index.nodes[arena.owner(of: member)].internedID, event))
                }
            }
        }
        // Recognizers that already saw the down keep their history; the others start from the original down.
        let previous = delivered ? Set(state.recognizers) : []
        // The child no longer has the finger: if it was dragging the child, another finger may now.
        if let target = state.target { releaseDrag(of: target, by: key) }
        state.target = container
        // The container's stream starts where the finger went down: so does its scrolling.
        claimScroll(of: container, by: key, from: state.downLocation)
        state.container = nil
        state.deliverAt = nil
        state.withheld = []
        state.dragOrigin = nil
        state.recognizers = recognizers(forFingerOn: container)
        // The container's stream starts where the finger went down.
        let down = MappedFingerEvent(
            event: FingerEvent(
                phase: .down, finger: state.finger, slot: state.slot, time: time, contact: state.lastContact),
            position: state.downLocation)
        if !state.silent { out.append(.touch(touchEvent(state, down, regionNode: container, in: index))) }
        let fresh = state.recognizers.filter { !previous.contains($0) }
        let start = MappedFingerEvent(
            event: FingerEvent(
                phase: .down, finger: state.finger, slot: state.slot, time: state.downTime, contact: state.lastContact),
            position: state.downLocation)
        feed(fresh, key: key, start)
    }
}
