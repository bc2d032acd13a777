import TouchCore

/// Decides between recognizers that see the same fingers, as UIKit's gesture system does, from one table of
/// relations (`GestureRelations`), in one place:
///
/// - exclusive by default: when one begins or recognizes, every other engaged recognizer that shares a finger
///   with it fails (or is cancelled if it had begun), unless the two may run simultaneously or are steps of one
///   sequence;
/// - `mustFail`: a recognizer that would succeed while one it waits for is still possible holds its success
///   (`pending`); it is released when those fail and dropped when one of them succeeds. That is how a single
///   tap waits for a double tap to fail;
/// - sequences: a later step hears nothing until the step before it is recognized (`SequenceStep`).
///
/// The arena owns no clock: `advance(to:)` runs the timers due by a given event time.
public final class GestureArena {
    public struct Report: Equatable, Sendable {
        /// Index of the owner the recognizer was added with (the dispatcher's region index).
        public var owner: Int
        /// The reporting recognizer's index in `recognizers`.
        public var member: Int
        public var event: GestureEvent
    }

    public private(set) var recognizers: [Recognizer] = []
    private var owners: [Int] = []
    /// How the recognizers relate, by index: one entry for each recognizer once `install(_:)` has run, read only for
    /// the recognizers it marked (`waitsForOthers`, `isLaterStep`, `hasNextStep`).
    public private(set) var relations = GestureRelations()
    /// Recognizers fed since they were last idle: the only ones timers and conflicts need to look at, so the
    /// cost per event follows the fingers on screen, not the size of the scene. In ascending order, the order
    /// conflicts are settled in, without duplicates: a few entries, so an array kept sorted costs less than a set
    /// sorted (and rebuilt) on every event.
    private var engaged: [Int] = []
    private let simultaneous: (Recognizer, Int, Recognizer, Int) -> Bool

    /// - Parameter simultaneous: whether two recognizers (with their owners) may both be active.
    public init(simultaneous: @escaping (Recognizer, Int, Recognizer, Int) -> Bool = { _, _, _, _ in false }) {
        self.simultaneous = simultaneous
    }

    /// Adds a recognizer, with no relation to the others until `install(_:)`. One carried over from another arena
    /// (a scene change) may be mid-gesture, and keeps its progress in a sequence (`Recognizer.step`).
    public func add(_ recognizer: Recognizer, owner: Int) {
        if recognizer.isEngaged || recognizer.deadline != nil { engage(recognizers.count) }
        recognizer.owner = owner
        recognizer.member = recognizers.count
        recognizer.waitsForOthers = false
        recognizer.isLaterStep = false
        recognizer.hasNextStep = false
        recognizers.append(recognizer)
        owners.append(owner)
    }

    /// Installs the relations between the recognizers added, one entry for each.
    public func install(_ relations: GestureRelations) {
        precondition(
            relations.mustFail.count == recognizers.count && relations.after.count == recognizers.count
                && relations.next.count == recognizers.count, "a relation table for another arena")
        self.relations = relations
        for index in recognizers.indices {
            recognizers[index].waitsForOthers = !relations.mustFail[index].isEmpty
            recognizers[index].isLaterStep = relations.after[index] != nil
            recognizers[index].hasNextStep = relations.next[index] != nil
        }
    }

    /// The owner the recognizer at `index` was added with.
    public func owner(of index: Int) -> Int { owners[index] }

    public func removeAll() {
        recognizers.removeAll()
        owners.removeAll()
        engaged.removeAll()
        relations = GestureRelations()
    }

    /// Feeds a sample to the given recognizers (indices into `recognizers`) and resolves the outcome.
    public func feed(_ sample: TouchSample, to members: [Int]) -> [Report] {
        var reports: [Report] = []
        feed(sample, to: members, into: &reports)
        return reports
    }

    /// Feeds a sample as `feed(_:to:)` does, appending the reports to the caller's buffer (reused from event to
    /// event, so the per-event path allocates nothing).
    public func feed(_ sample: TouchSample, to members: [Int], into reports: inout [Report]) {
        let start = reports.count
        for index in members {
            withRecognizer(index) { recognizer in
                if recognizer.isLaterStep && !listens(recognizer, to: sample) { return }
                // What `take` would do, without the call: a finished recognizer ignores a move, and it is engaged
                // already (it has fingers).
                if sample.phase == .move && recognizer.ignoresMoves { return }
                engage(index)
                recognizer.take(sample, into: &reports)
                if recognizer.hasProvisional { settleProvisional(index, into: &reports) }
            }
        }
        resolve(at: sample.time, into: &reports, from: start)
    }

    /// Lends the recognizer at `index` to `body` without a retain (a strong reference cost a retain and a release
    /// for every event). Safe because `recognizers` owns it throughout and changes only in `add` and `removeAll`,
    /// which nothing a recognizer does can reach: recognizers hold no reference to their arena, and the class is
    /// not open, so no subclass elsewhere can either.
    @inline(__always)
    private func withRecognizer<Result>(_ index: Int, _ body: (Recognizer) -> Result) -> Result {
        Unmanaged.passUnretained(recognizers[index])._withUnsafeGuaranteedRef(body)
    }

    /// Moves the reports of the recognizer at `index` to `reports`, first settling its provisional `began` or
    /// `ended`: held while one it must wait for may still succeed on its fingers.
    private func collect(_ index: Int, into reports: inout [Report]) {
        if recognizers[index].hasProvisional { settleProvisional(index, into: &reports) }
        recognizers[index].moveReports(into: &reports)
    }

    @inline(never)
    private func settleProvisional(_ index: Int, into reports: inout [Report]) {
        let recognizer = recognizers[index]
        let blocked = relations.mustFail[index].contains { recognizers[$0].blocks(recognizer) }
        recognizer.settleProvisional(holding: blocked)
        recognizer.moveReports(into: &reports)
    }

    /// Sequencing: whether an armed later step takes this sample (its own fingers, or a new down in time); an
    /// unarmed one takes nothing.
    private func listens(_ recognizer: Recognizer, to sample: TouchSample) -> Bool {
        guard recognizer.step.armed else { return false }
        if recognizer.state.isFinished && recognizer.fingers.isEmpty && !recognizer.participants.isEmpty
            && !recognizer.isHolding
        {
            recognizer.step.armed = false  // its sequence is over: wait for the predecessor again
            return false
        }
        if sample.phase == .down {
            if recognizer.fingers.isEmpty, let until = recognizer.step.armedUntil, sample.time > until {
                recognizer.step.armed = false
                return false
            }
            recognizer.step.armedUntil = nil
            return true
        }
        return recognizer.fingers.contains(sample.finger)
    }

    /// The earliest pending timer.
    public var nextDeadline: EventTime? {
        // Asked before every event: a loop, not compactMap, so it allocates nothing.
        var earliest: EventTime?
        // By position: `for index in engaged` retained and released the array on every call.
        for position in engaged.indices {
            let index = engaged[position]
            guard !recognizers[index].state.isFinished, let deadline = recognizers[index].deadline else { continue }
            earliest = min(earliest ?? deadline, deadline)
        }
        return earliest
    }

    /// Runs every timer due at or before `time`, in deadline order.
    public func advance(to time: EventTime) -> [Report] {
        var reports: [Report] = []
        while let deadline = nextDeadline, deadline <= time {
            // Only engaged recognizers have a timer that can fire (`dropIdle` keeps every unfinished one with a
            // deadline), in the arena's order; firing changes no recognizer's place in `engaged`.
            for position in engaged.indices where recognizers[engaged[position]].deadline == deadline {
                let index = engaged[position]
                recognizers[index].runTimer(at: deadline)
                collect(index, into: &reports)
            }
            resolve(at: deadline, into: &reports)
        }
        return reports
    }

    /// Cancels or fails every engaged recognizer fed by `finger` (its region went away).
    public func abandon(finger: FingerKey, at time: EventTime) -> [Report] {
        var reports: [Report] = []
        for index in engaged where recognizers[index].participants.contains(finger) {
            recognizers[index].take(
                TouchSample(finger: finger, phase: .cancel, location: .zero, time: time), into: &reports)
            if recognizers[index].hasProvisional { settleProvisional(index, into: &reports) }
        }
        resolve(at: time, into: &reports)
        return reports
    }

    /// Settles conflicts raised by the reports from `start` on (earlier ones in the buffer are the caller's).
    private func resolve(at time: EventTime, into reports: inout [Report], from start: Int = 0) {
        if needsSettling(reports, from: start) { settle(at: time, into: &reports, from: start) }
        dropIdle()
    }

    /// Whether `settle` has anything to do: a report from `start` on that began or ended (a winner), or a held
    /// success. Without either, its first pass changes nothing and it stops there; most events (a drag's
    /// `changed`) have neither, and the test costs less than the call.
    @inline(__always)
    private func needsSettling(_ reports: [Report], from start: Int) -> Bool {
        var position = start
        while position < reports.count {
            let kind = reports[position].event.event
            if kind == .began || kind == .ended { return true }
            position += 1
        }
        for position in engaged.indices where withRecognizer(engaged[position], { $0.isHolding }) { return true }
        return false
    }

    /// Winners exclude the recognizers that share a finger with them, and held successes are dropped or released,
    /// until a pass changes nothing.
    @inline(never)
    private func settle(at time: EventTime, into reports: inout [Report], from start: Int) {
        var examined = start
        var changed = true
        // The engaged recognizers a winner may still exclude (unfinished, or holding a success), in the arena's
        // order: a crowded region's finger ends many taps at once, and each of those winners looking through every
        // engaged one made the work the square of the recognizers. Within a pass only `arm` opens one more.
        var open: [Int] = []
        while changed {
            changed = false
            collectOpen(into: &open)
            // Winners since the last pass exclude the others that share a finger.
            while examined < reports.count {
                let report = reports[examined]
                examined += 1
                guard report.event.event == .began || report.event.event == .ended else { continue }
                // The report names its recognizer: no search of the arena for it.
                let winner = report.member
                if recognizers[winner].hasNextStep, let next = relations.next[winner],
                    report.event.event == Self.completion(of: recognizers[winner])
                {
                    arm(next, following: winner, at: time, into: &reports)
                    collectOpen(into: &open)
                }
                // By position: nothing below changes `open`.
                for position in open.indices where open[position] != winner {
                    let index = open[position]
                    let other = recognizers[index]
                    // Finished by an earlier winner, and holding nothing: there is nothing to fail.
                    guard other.isHolding || !other.state.isFinished, !other.participants.isEmpty else { continue }
                    guard other.sharesFinger(with: recognizers[winner]) else { continue }
                    guard !simultaneous(recognizers[winner], owners[winner], other, owners[index]) else { continue }
                    if other.isLaterStep || other.hasNextStep, relations.isSequenced(index, with: winner) { continue }
                    for event in other.forceFail(at: time) {
                        reports.append(Report(owner: owners[index], member: index, event: event))
                    }
                    changed = true
                }
            }
            // Held successes: dropped when one they wait for succeeded, released when all have failed. By position
            // (nothing here changes `engaged`): `for index in engaged` retained and released the array every time.
            for position in engaged.indices where recognizers[engaged[position]].isHolding {
                let index = engaged[position]
                let recognizer = recognizers[index]
                let blockers = relations.mustFail[index]
                if blockers.contains(where: { recognizers[$0].overrules(recognizer) }) {
                    for event in recognizer.forceFail(at: time) {
                        reports.append(Report(owner: owners[index], member: index, event: event))
                    }
                    changed = true
                } else if !blockers.contains(where: { recognizers[$0].blocks(recognizer) }) {
                    recognizer.releasePending(at: time, restarting: relations.after[index] == nil)
                    collect(index, into: &reports)
                    changed = true
                }
            }
        }
    }

    /// The engaged recognizers that are unfinished or hold a success, in order: the only ones `forceFail` changes.
    private func collectOpen(into open: inout [Int]) {
        open.removeAll(keepingCapacity: true)
        for position in engaged.indices {
            let index = engaged[position]
            if withRecognizer(index, { $0.isHolding || !$0.state.isFinished }) { open.append(index) }
        }
    }

    @inline(__always)
    private func dropIdle() {
        // Idle again (finished, no finger, nothing held): out of the engaged set until fed again. Compacted in
        // place, in order, written only from the first one to go (`removeAll(where:)` retained the recognizers for
        // its closure and made the array unique on every call, though mostly none goes).
        // Each recognizer lent unretained (`let recognizer = recognizers[index]` retained and released it).
        var kept = 0
        for position in engaged.indices {
            let index = engaged[position]
            let stays = withRecognizer(index) { $0.isEngaged || ($0.deadline != nil && !$0.state.isFinished) }
            guard stays else { continue }
            if kept != position { engaged[kept] = index }
            kept += 1
        }
        if kept < engaged.count { engaged.removeSubrange(kept...) }
    }

    /// The report that completes a sequence's step: a long press is complete when its time is up (its `began`, as
    /// SwiftUI's LongPressGesture ends then); every other gesture when it ends.
    static func completion(of recognizer: Recognizer) -> GestureEventKind {
        recognizer.spec.kind == .longPress || recognizer.spec.kind == .longPressDrag ? .began : .ended
    }

    /// Sequencing: the step at `first` was recognized at `time`; the step at `index` starts from its fingers still
    /// down, or waits for the next down within `GestureDefaults.doubleTapInterval` when none is.
    private func arm(_ index: Int, following first: Int, at time: EventTime, into reports: inout [Report]) {
        engage(index)
        let fingers = recognizers[first].fingers
        recognizers[index].step.armed = true
        recognizers[index].step.armedUntil = fingers.isEmpty ? time + GestureDefaults.doubleTapInterval : nil
        for key in fingers.keys.sorted() {
            guard let track = fingers[key] else { continue }
            let down = TouchSample(finger: key, phase: .down, location: track.location, time: time)
            recognizers[index].take(down, into: &reports)
            if recognizers[index].hasProvisional { settleProvisional(index, into: &reports) }
        }
    }

    private func engage(_ index: Int) {
        var position = engaged.endIndex
        while position > engaged.startIndex && engaged[position - 1] > index { position -= 1 }
        if position > engaged.startIndex && engaged[position - 1] == index { return }
        engaged.insert(index, at: position)
    }
}
