import TouchCore
import TouchGestures

/// The recognizer table: each region's recognizers in one arena, gestures bubbling to the nearest region that asks
/// for a kind, timers (gesture deadlines and withheld downs) run in time order.
extension Dispatcher {
    /// A finger event to the recognizers it feeds, and their reports out. Always inlined: `deliver` feeds a finger
    /// on a region with gestures at every event.
    @inline(__always)
    func feed(_ members: [Int], key: FingerKey, _ mapped: MappedFingerEvent) {
        guard !members.isEmpty else { return }
        let sample = TouchSample(
            finger: key, phase: mapped.event.phase, location: mapped.position, time: mapped.event.time)
        withArena { $0.feed(sample, to: members, into: &reports) }
        // By position: `for report in reports` retained and released the buffer on every event.
        // Each report read where the array holds it, its three fields alone: the whole report was copied out first.
        var position = reportsRead
        while position < reports.count {
            // Made before the append: made inside it, the report's event is copied out twice on its way.
            let gesture = DispatchEvent.gesture(
                region: index.nodes[reports[position].owner].internedID, reports[position].event)
            out.append(gesture)
            noteTaking(member: reports[position].member, reports[position].event.event)
            position += 1
        }
        reportsRead = position
        // The buffer is emptied once it is long, not after every event: a removal tests the array's uniqueness.
        if reportsRead >= Self.reportsKept {
            reports.removeAll(keepingCapacity: true)
            reportsRead = 0
        }
    }

    /// How many handled reports `reports` keeps before it is emptied.
    static let reportsKept = 256

    /// Settles the arena's held successes after a scene change or an edit (`GestureArena.settleHeld`).
    func settleHeldGestures(at time: EventTime) {
        for report in arena.settleHeld(at: time) {
            out.append(.gesture(region: index.nodes[report.owner].internedID, report.event))
            noteTaking(report)
        }
    }

    /// Lends the arena to `body` without a retain (reading `arena` for a call retained and released it on every
    /// event). Safe because the dispatcher owns the arena and replaces it only on a scene change, which nothing the
    /// arena does can reach: it and its recognizers hold no reference to the dispatcher.
    @inline(__always)
    func withArena<Result>(_ body: (GestureArena) -> Result) -> Result {
        Unmanaged.passUnretained(arena)._withUnsafeGuaranteedRef(body)
    }

    /// A new arena for the scene's recognizers: new ones, or for the regions `carried` names, the recognizers of
    /// `previous` (by index) carried over mid-gesture. Returns, for each of `previous`'s recognizers, its index in the
    /// new arena when it was carried.
    func makeArena(carrying carried: [String: [Int]] = [:], from previous: GestureArena? = nil) -> [Int?] {
        let nodes = index.nodes
        let arena = GestureArena()
        var carriedTo = Array(repeating: Int?.none, count: previous?.count ?? 0)
        recognizersByNode = Array(repeating: [], count: nodes.count)
        recognizersOfTarget = Array(repeating: nil, count: nodes.count)
        for (node, entry) in nodes.enumerated() {
            if let previous, let members = carried[entry.id] {
                for member in members {
                    let position = arena.carry(member, from: previous, owner: node)
                    carriedTo[member] = position
                    recognizersByNode[node].append(position)
                }
            } else {
                for spec in entry.region.gestures {
                    recognizersByNode[node].append(arena.add(Recognizer(spec: spec), owner: node))
                }
            }
        }
        self.arena = arena
        return carriedTo
    }

    func runTimers(upTo time: EventTime) {
        // The first look takes the answer kept since the last change (the engine asked it before this event);
        // after a timer has run, the fingers and recognizers have changed, and it is worked out again.
        var next = nextDeadline
        while let deadline = next, deadline <= time {
            knownDeadline = nil
            defer { next = currentDeadline }
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
                    out.append(.gesture(region: index.nodes[report.owner].internedID, report.event))
                    noteTaking(report)
                }
            }
        }
    }
}
