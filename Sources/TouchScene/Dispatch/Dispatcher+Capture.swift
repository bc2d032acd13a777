import TouchCore
import TouchGestures

/// Capture: a finger's down is hit-tested once; the finger then belongs to that region (or, past a scroll
/// container's slop, to the container) until it lifts or is cancelled.
extension Dispatcher {
    /// Routes one finger event, then forgets the deadline kept unless it is still "none": none was kept or found on
    /// the way in (so no timer ran), and the event withheld no down and left the recognizers no timer. Never
    /// inlined, so that `handle(finger:device:into:)` stays small enough for the engine to inline it.
    @inline(never)
    func handleFinger(_ mapped: MappedFingerEvent, device: DeviceTag) {
        routeFinger(mapped, device: device)
        if case .some(.none) = knownDeadline, !mayHaveWithheldFingers, withArena({ $0.nextDeadline }) == nil {
            return
        }
        knownDeadline = nil
    }

    @inline(__always)
    func routeFinger(_ mapped: MappedFingerEvent, device: DeviceTag) {
        let event = mapped.event
        let key = Self.key(device, event.finger)
        if event.phase == .down {
            fingerDown(mapped, key: key, device: device)
            return
        }
        guard let position = fingers.position(of: key) else { return }
        let ends = event.phase == .up || event.phase == .cancel
        if fingers[position: position].dead {
            if ends { fingers[key] = nil }
            return
        }
        // The state changes in place, not copied out and stored back (its arrays and strings retained and released
        // for every event): nothing `follow` reaches adds, removes or reads a finger of the table.
        follow(&fingers[position: position], mapped, key: key)
        if ends { finish(fingers[position: position], mapped, key: key) }
    }

    /// A move, lift or cancel of a finger the dispatcher holds: the container may take it, a withheld down may
    /// still wait, and the target hears it. Always inlined into `handleFinger`, its one caller.
    @inline(__always)
    func follow(_ state: inout FingerState, _ mapped: MappedFingerEvent, key: FingerKey) {
        let event = mapped.event
        state.maxMovement = max(state.maxMovement, mapped.position.distance(to: state.downLocation))
        if event.phase == .move, let container = state.container,
            mapped.position.distance(to: state.downLocation) > index.nodes[container].region.intercept!.slop
        {
            intercept(&state, by: container, key: key, at: event.time)
        }
        if state.deliverAt != nil {
            state.withheld.append(mapped)
            if event.phase == .move { return }
            // Lifted before the delay ran out: the child gets the whole short touch now.
            state.deliverAt = nil
            let withheld = state.withheld
            state.withheld = []
            for item in withheld { deliver(&state, item, key: key) }
        } else {
            deliver(&state, mapped, key: key)
        }
    }

    func fingerDown(_ mapped: MappedFingerEvent, key: FingerKey, device: DeviceTag) {
        let event = mapped.event
        let target = index.hitTest(mapped.position)
        var state = FingerState(
            key: key, device: device.id, finger: event.finger, slot: event.slot, target: target, downTime: event.time,
            downLocation: mapped.position, lastLocation: mapped.position, tapCount: 1, recognizers: [],
            silent: target == nil && options.dropUnassigned)
        if let target {
            state.tapCount = tapCount(on: target, at: mapped.position, time: event.time)
            state.recognizers = recognizers(forFingerOn: target)
            state.container = index.chain(from: target).dropFirst().first { index.nodes[$0].region.intercept != nil }
            claimDrag(of: target, by: key, &state)
            claimScroll(of: target, by: key, from: mapped.position)
        }
        if let container = state.container, let delay = index.nodes[container].region.intercept?.delay,
            delay.microseconds > 0
        {
            state.deliverAt = event.time + delay
            mayHaveWithheldFingers = true
            state.withheld = [mapped]
        } else {
            deliver(&state, mapped, key: key)
        }
        fingers[key] = state
        if !state.recognizers.isEmpty { noteTakingAtDown(of: key) }
    }

    /// Raw event, recognizers, drag-follow: everything the target hears of one finger event.
    func deliver(_ state: inout FingerState, _ mapped: MappedFingerEvent, key: FingerKey) {
        // Checked here, so a scene without a finger dragging or scrolling a region pays one test each per event and
        // no call (the call copied the finger's whole state).
        if !dragDrivers.isEmpty { followDrag(state, mapped, key: key) }
        if !scrollDrivers.isEmpty { followScroll(state, mapped, key: key) }
        if !state.silent { out.append(.touch(touchEvent(state, mapped, regionNode: state.target, in: index))) }
        state.lastLocation = mapped.position
        state.lastContact = mapped.event.contact
        // Checked here too: half the fingers of a busy scene hit no region with gestures, and the call cost more.
        if !state.recognizers.isEmpty { feed(state.recognizers, key: key, mapped) }
    }

    func finish(_ state: FingerState, _ mapped: MappedFingerEvent, key: FingerKey) {
        if let target = state.target {
            releaseDrag(of: target, by: key)
            releaseScroll(of: target, by: key)
            recordTap(on: target, state, mapped)
        }
        fingers[key] = nil
    }

    func touchEvent(_ state: FingerState, _ mapped: MappedFingerEvent, regionNode: Int?, in index: SceneIndex)
        -> DispatchedTouch
    {
        // Two fields, not the node: a copy of the node (its region, gestures and all) is a memcpy on every event.
        let id = regionNode.map { index.nodes[$0].internedID }
        let origin = regionNode.map { index.nodes[$0].frame.origin }
        let phase = mapped.event.phase
        return DispatchedTouch(
            phase: phase, regionID: id, deviceID: state.device, key: state.key, finger: state.finger,
            slot: state.slot,
            time: mapped.event.time, location: mapped.position,
            local: origin.map { mapped.position - $0 } ?? mapped.position,
            previous: phase == .down ? state.downLocation : state.lastLocation,
            translation: mapped.position - state.downLocation, sinceDown: mapped.event.time - state.downTime,
            tapCount: state.tapCount, contact: mapped.event.contact)
    }
}

extension Dispatcher {
    /// Whether a finger whose down was just handled is kept by touchd: it went down on a region that does not
    /// forward, or a gesture has taken it (`takeFingers`). False for a finger on no region (reported with region
    /// nil or dropped), on a `forward` region, or unknown to the dispatcher: those go to the device's virtual
    /// touchscreen, if it has one.
    public func claims(_ finger: FingerID, device: DeviceTag) -> Bool {
        guard let state = fingers[Self.key(device, finger)], let target = state.target else { return false }
        return state.taken || !index.nodes[target].region.forward
    }
}
