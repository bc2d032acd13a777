import TouchCore
import TouchGestures

/// Routes each finger to the region it went down on and runs the regions' gesture recognizers.
///
/// - Capture: the hit test runs once, at the finger's down; the finger then belongs to that region until it
///   lifts or is cancelled, wherever it moves. Fingers are independent (split touch): two fingers may feed two
///   regions. A finger that hits nothing is reported with no region, unless `dropUnassigned`.
/// - Gestures bubble: for each gesture kind, the finger feeds the recognizers of the nearest region, from the
///   captured one up through its ancestors, that asks for that kind.
/// - Cancel: a finger whose region is removed, hidden or disabled by a scene change gets one `cancel` and
///   nothing more; device loss and palms arrive as `cancel` from the decoder and pass through the same way.
/// - Scroll containers (`intercept`): once a descendant's finger moves beyond the slop, the container takes it:
///   the child gets `cancel` (or, with a delay, never hears of it) and the container gets the finger.
/// - Pure: times come from the events and `advance(to:)`; no clock is read.
public final class Dispatcher {
    public struct Options: Sendable {
        /// Report nothing for fingers that hit no region (default: report them with no region).
        public var dropUnassigned = false
        public init(dropUnassigned: Bool = false) { self.dropUnassigned = dropUnassigned }
    }

    public private(set) var index: SceneIndex
    public let options: Options
    private var arena: GestureArena
    /// Arena indices of each node's recognizers.
    private var recognizersByNode: [[Int]] = []
    private var fingers: [UInt64: FingerState] = [:]
    /// Per node, the finger key that drags it.
    private var dragDrivers: [Int: UInt64] = [:]
    private var tapHistory: [Int: TapRecord] = [:]
    private var out: [DispatchEvent] = []

    struct FingerState {
        var device: String
        var finger: FingerID
        var slot: Int32
        var target: Int?
        var downTime: EventTime
        var downLocation: Point
        var lastLocation: Point
        var tapCount: Int
        var recognizers: [Int]
        /// The scroll container that may still take this finger.
        var container: Int?
        /// When the withheld down is due (a container with a delay), nil once delivered.
        var deliverAt: EventTime?
        var withheld: [MappedFingerEvent] = []
        var dragOrigin: Point?
        var lastContact = ContactState()
        var maxMovement = 0.0
        /// Cancelled by a scene change: everything after is swallowed.
        var dead = false
        var silent: Bool
    }

    struct TapRecord {
        var time: EventTime
        var location: Point
        var count: Int
    }

    public init(scene: Scene, options: Options = Options()) {
        self.options = options
        index = SceneIndex(scene: scene)
        arena = GestureArena()
        arena = makeArena(reusing: [:])
    }

    /// Fingers currently down (and not cancelled).
    public var liveFingerCount: Int { fingers.values.filter { !$0.dead }.count }

    /// Region id a live finger is captured by.
    public func region(ofFinger finger: FingerID, device: DeviceTag) -> String? {
        fingers[Self.key(device, finger)]?.target.map { index.nodes[$0].id }
    }

    /// The earliest time at which `advance(to:)` has work.
    public var nextDeadline: EventTime? {
        let delayed = fingers.values.compactMap(\.deliverAt).min()
        switch (delayed, arena.nextDeadline) {
        case (let a?, let b?): return min(a, b)
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (nil, nil): return nil
        }
    }

    /// Handles one pipeline output from `device`, after running every timer due before it, and appends what it
    /// dispatches to `events`. The caller owns the buffer, so the per-event path allocates nothing.
    public func handle(_ output: PipelineOutput, device: DeviceTag, into events: inout [DispatchEvent]) {
        writingOutput(into: &events) {
            switch output {
            case .finger(let mapped):
                runTimers(upTo: mapped.event.time)
                handleFinger(mapped, device: device)
            case .frameEnd(let time):
                out.append(.frame(device: device.name, time: time))
            }
        }
    }

    public func handle(_ output: PipelineOutput, device: DeviceTag) -> [DispatchEvent] {
        var events: [DispatchEvent] = []
        handle(output, device: device, into: &events)
        return events
    }

    /// Runs timers (long press, tap windows, delayed touches) due at or before `time`, appending to `events`.
    public func advance(to time: EventTime, into events: inout [DispatchEvent]) {
        writingOutput(into: &events) { runTimers(upTo: time) }
    }

    public func advance(to time: EventTime) -> [DispatchEvent] {
        var events: [DispatchEvent] = []
        advance(to: time, into: &events)
        return events
    }

    /// Installs a new scene. Fingers keep their regions where those still exist and can take touches; the others
    /// get `cancel`. Recognizers of regions whose gestures did not change carry over, mid-gesture.
    public func replaceScene(_ scene: Scene, at time: EventTime) -> [DispatchEvent] {
        let oldIndex = index
        let oldRecognizers = recognizersByNode
        let oldArena = arena
        index = SceneIndex(scene: scene)
        var reused: [String: [Recognizer]] = [:]
        for (node, members) in oldRecognizers.enumerated() {
            let oldRegion = oldIndex.nodes[node].region
            guard let newNode = index[oldRegion.id], newNode.region.gestures == oldRegion.gestures,
                newNode.region.simultaneous == oldRegion.simultaneous
            else { continue }
            reused[oldRegion.id] = members.map { oldArena.recognizers[$0] }
        }
        arena = makeArena(reusing: reused)
        var carried: [ObjectIdentifier: Int] = [:]
        for (position, recognizer) in arena.recognizers.enumerated() {
            carried[ObjectIdentifier(recognizer)] = position
        }

        for key in fingers.keys.sorted() {
            guard var state = fingers[key], !state.dead else { continue }
            let oldTarget = state.target
            let newTarget = oldTarget.flatMap { index.index(of: oldIndex.nodes[$0].id) }
            if let oldTarget, newTarget == nil || !index.nodes[newTarget!].eligible {
                // The region went away, or can no longer take touches: one cancel, then silence.
                if state.deliverAt == nil && !state.silent {
                    let last = MappedFingerEvent(
                        event: FingerEvent(
                            phase: .cancel, finger: state.finger, slot: state.slot, time: time,
                            contact: state.lastContact), position: state.lastLocation)
                    out.append(.touch(touchEvent(state, last, regionNode: oldTarget, in: oldIndex)))
                }
                for member in state.recognizers {
                    for event in oldArena.recognizers[member].forceFail(at: time) {
                        out.append(.gesture(region: oldIndex.nodes[oldTarget].id, event))
                    }
                }
                state.dead = true
                state.recognizers = []
                state.withheld = []
                state.deliverAt = nil
                fingers[key] = state
                continue
            }
            state.target = newTarget
            state.container = state.container.flatMap { index.index(of: oldIndex.nodes[$0].id) }
            var kept: [Int] = []
            for member in state.recognizers {
                let recognizer = oldArena.recognizers[member]
                if let position = carried[ObjectIdentifier(recognizer)] {
                    kept.append(position)
                } else if let oldTarget {
                    for event in recognizer.forceFail(at: time) {
                        out.append(.gesture(region: oldIndex.nodes[oldTarget].id, event))
                    }
                }
            }
            state.recognizers = kept
            fingers[key] = state
        }
        dragDrivers = Dictionary(
            uniqueKeysWithValues: dragDrivers.compactMap { node, key in
                index.index(of: oldIndex.nodes[node].id).map { ($0, key) }
            })
        tapHistory = Dictionary(
            uniqueKeysWithValues: tapHistory.compactMap { node, record in
                index.index(of: oldIndex.nodes[node].id).map { ($0, record) }
            })
        return takeOutput()
    }

    // MARK: Fingers

    static func key(_ device: DeviceTag, _ finger: FingerID) -> UInt64 {
        UInt64(device.index) << 32 | UInt64(finger.rawValue)
    }

    private func handleFinger(_ mapped: MappedFingerEvent, device: DeviceTag) {
        let event = mapped.event
        let key = Self.key(device, event.finger)
        if event.phase == .down {
            fingerDown(mapped, key: key, device: device)
            return
        }
        guard var state = fingers[key] else { return }
        if state.dead {
            if event.phase == .up || event.phase == .cancel { fingers[key] = nil }
            return
        }
        state.maxMovement = max(state.maxMovement, mapped.position.distance(to: state.downLocation))
        if event.phase == .move, let container = state.container,
            mapped.position.distance(to: state.downLocation) > index.nodes[container].region.intercept!.slop
        {
            intercept(&state, by: container, key: key, at: event.time)
        }
        if state.deliverAt != nil {
            state.withheld.append(mapped)
            if event.phase == .move {
                fingers[key] = state
                return
            }
            // Lifted before the delay ran out: the child gets the whole short touch now.
            state.deliverAt = nil
            let withheld = state.withheld
            state.withheld = []
            for item in withheld { deliver(&state, item, key: key) }
        } else {
            deliver(&state, mapped, key: key)
        }
        if event.phase == .up || event.phase == .cancel {
            finish(state, mapped, key: key)
        } else {
            fingers[key] = state
        }
    }

    private func fingerDown(_ mapped: MappedFingerEvent, key: UInt64, device: DeviceTag) {
        let event = mapped.event
        let target = index.hitTest(mapped.position)
        var state = FingerState(
            device: device.name, finger: event.finger, slot: event.slot, target: target, downTime: event.time,
            downLocation: mapped.position, lastLocation: mapped.position, tapCount: 1, recognizers: [],
            silent: target == nil && options.dropUnassigned)
        if let target {
            state.tapCount = tapCount(on: target, at: mapped.position, time: event.time)
            state.recognizers = recognizers(for: index.chain(from: target))
            state.container = index.chain(from: target).dropFirst().first { index.nodes[$0].region.intercept != nil }
            if index.nodes[target].region.draggable && dragDrivers[target] == nil {
                dragDrivers[target] = key
                state.dragOrigin = index.nodes[target].region.frame.origin
            }
        }
        if let container = state.container, let delay = index.nodes[container].region.intercept?.delay,
            delay.microseconds > 0
        {
            state.deliverAt = event.time + delay
            state.withheld = [mapped]
        } else {
            deliver(&state, mapped, key: key)
        }
        fingers[key] = state
    }

    /// Raw event, recognizers, drag-follow: everything the target hears of one finger event.
    private func deliver(_ state: inout FingerState, _ mapped: MappedFingerEvent, key: UInt64) {
        if let target = state.target, dragDrivers[target] == key, let origin = state.dragOrigin,
            mapped.event.phase == .move
        {
            let moved = origin + (mapped.position - state.downLocation)
            if moved != index.nodes[target].region.frame.origin {
                index.moveRegion(target, toOrigin: moved)
                let node = index.nodes[target]
                out.append(.regionMoved(region: node.id, frame: node.region.frame, time: mapped.event.time))
            }
        }
        if !state.silent { out.append(.touch(touchEvent(state, mapped, regionNode: state.target, in: index))) }
        state.lastLocation = mapped.position
        state.lastContact = mapped.event.contact
        feed(state.recognizers, key: key, mapped)
    }

    private func feed(_ members: [Int], key: UInt64, _ mapped: MappedFingerEvent) {
        guard !members.isEmpty else { return }
        let sample = TouchSample(
            finger: key, phase: mapped.event.phase, location: mapped.position, time: mapped.event.time)
        for report in arena.feed(sample, to: members) {
            out.append(.gesture(region: index.nodes[report.owner].id, report.event))
        }
    }

    private func intercept(_ state: inout FingerState, by container: Int, key: UInt64, at time: EventTime) {
        let containerChain = Set(index.chain(from: container))
        let delivered = state.deliverAt == nil
        if delivered, let target = state.target {
            // The child already has the finger: it gets one cancel, its own recognizers too.
            let cancel = MappedFingerEvent(
                event: FingerEvent(
                    phase: .cancel, finger: state.finger, slot: state.slot, time: time, contact: state.lastContact),
                position: state.lastLocation)
            if !state.silent { out.append(.touch(touchEvent(state, cancel, regionNode: target, in: index))) }
            for member in state.recognizers where !containerChain.contains(ownerOf(member)) {
                for event in arena.recognizers[member].forceFail(at: time) {
                    out.append(.gesture(region: index.nodes[ownerOf(member)].id, event))
                }
            }
        }
        // Recognizers that already saw the down keep their history; the others start from the original down.
        let previous = delivered ? Set(state.recognizers) : []
        state.target = container
        state.container = nil
        state.deliverAt = nil
        state.withheld = []
        state.dragOrigin = nil
        state.recognizers = recognizers(for: index.chain(from: container))
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

    private func finish(_ state: FingerState, _ mapped: MappedFingerEvent, key: UInt64) {
        if let target = state.target {
            if dragDrivers[target] == key { dragDrivers[target] = nil }
            let quick = mapped.event.time - state.downTime <= GestureDefaults.tapMaximumHold
            if mapped.event.phase == .up && quick && state.maxMovement <= GestureDefaults.touchSlop {
                tapHistory[target] = TapRecord(
                    time: mapped.event.time, location: state.downLocation, count: state.tapCount)
            } else {
                tapHistory[target] = nil
            }
        }
        fingers[key] = nil
    }

    private func tapCount(on target: Int, at location: Point, time: EventTime) -> Int {
        guard let last = tapHistory[target], time - last.time <= GestureDefaults.doubleTapInterval,
            location.distance(to: last.location) <= GestureDefaults.doubleTapSlop
        else { return 1 }
        return last.count + 1
    }

    private func touchEvent(_ state: FingerState, _ mapped: MappedFingerEvent, regionNode: Int?, in index: SceneIndex)
        -> DispatchedTouch
    {
        let node = regionNode.map { index.nodes[$0] }
        let phase = mapped.event.phase
        return DispatchedTouch(
            phase: phase, region: node?.id, device: state.device, finger: state.finger, slot: state.slot,
            time: mapped.event.time, location: mapped.position,
            local: node.map { mapped.position - $0.frame.origin } ?? mapped.position,
            previous: phase == .down ? state.downLocation : state.lastLocation,
            translation: mapped.position - state.downLocation, sinceDown: mapped.event.time - state.downTime,
            tapCount: state.tapCount, contact: mapped.event.contact)
    }

    // MARK: Recognizers

    /// For each gesture kind, the recognizers of the nearest region in the chain that asks for it.
    private func recognizers(for chain: [Int]) -> [Int] {
        var kinds: Set<GestureKind> = []
        var result: [Int] = []
        for node in chain {
            let own = Set(index.nodes[node].region.gestures.map(\.kind))
            for member in recognizersByNode[node] where !kinds.contains(arena.recognizers[member].spec.kind) {
                result.append(member)
            }
            kinds.formUnion(own)
        }
        return result
    }

    private func ownerOf(_ member: Int) -> Int {
        recognizersByNode.firstIndex { $0.contains(member) } ?? 0
    }

    private func makeArena(reusing reused: [String: [Recognizer]]) -> GestureArena {
        let nodes = index.nodes
        let arena = GestureArena { a, ownerA, b, ownerB in
            let groups = nodes[ownerA].region.simultaneous + (ownerA == ownerB ? [] : nodes[ownerB].region.simultaneous)
            return groups.contains { $0.contains(a.spec.name) && $0.contains(b.spec.name) }
        }
        recognizersByNode = Array(repeating: [], count: nodes.count)
        for (node, entry) in nodes.enumerated() {
            let made = reused[entry.id] ?? entry.region.gestures.map(Recognizer.make)
            for recognizer in made {
                recognizersByNode[node].append(arena.recognizers.count)
                arena.add(recognizer, owner: node)
            }
            // A tap waits for the taps of more taps (same fingers) on the same region to fail.
            for recognizer in made where recognizer.spec.kind == .tap {
                recognizer.mustFail = made.filter {
                    $0.spec.kind == .tap && $0.spec.fingers == recognizer.spec.fingers
                        && $0.spec.taps > recognizer.spec.taps
                }
            }
        }
        return arena
    }

    private func runTimers(upTo time: EventTime) {
        while let deadline = nextDeadline, deadline <= time {
            if let key = fingers.keys.sorted().first(where: { fingers[$0]?.deliverAt == deadline }),
                var state = fingers[key]
            {
                // The delay ran out with the finger still down and inside the slop: the child gets it after all.
                state.deliverAt = nil
                let withheld = state.withheld
                state.withheld = []
                for item in withheld { deliver(&state, item, key: key) }
                fingers[key] = state
            } else {
                for report in arena.advance(to: deadline) {
                    out.append(.gesture(region: index.nodes[report.owner].id, report.event))
                }
            }
        }
    }

    private func takeOutput() -> [DispatchEvent] {
        defer { out.removeAll(keepingCapacity: true) }
        return out
    }

    /// Lends the caller's buffer to `out` for the duration of `body`: what the dispatcher appends lands after the
    /// caller's events without an intermediate array.
    private func writingOutput(into events: inout [DispatchEvent], _ body: () -> Void) {
        swap(&out, &events)
        body()
        swap(&out, &events)
    }
}
