import TouchCore

/// Decides between recognizers that see the same fingers, as UIKit's gesture system does, from one table of
/// relations (`GestureRelations`), in one place:
///
/// - exclusive by default: when one begins or recognizes, every other engaged recognizer that shares a finger
///   with it fails (or is cancelled if it had begun), unless the two may run simultaneously or are steps of one
///   sequence;
/// - `mustFail`: a recognizer that would succeed while one it waits for is still possible holds its success; it is
///   released when those fail and dropped when one of them succeeds. That is how a single tap waits for a double
///   tap to fail;
/// - sequences: a later step hears nothing until the step before it is recognized (`SequenceStep`).
///
/// The arena owns the recognizers, values in one array, and changes them in place through their inputs. What it
/// asks of them on each event (finished, holding, waiting for its word, engaged, deadline) it keeps beside them,
/// from the `Recognizer.Outcome` each input returns: a finger event costs the recognizers it feeds, and the others
/// are looked at only when one began, ended or holds a success. It owns no clock: `advance(to:)` runs the timers
/// due by a given event time.
public final class GestureArena {
    public struct Report: Equatable, Sendable {
        /// Index of the owner the recognizer was added with (the dispatcher's region index).
        public var owner: Int
        /// The reporting recognizer's index in `recognizers`.
        public var member: Int
        public var event: GestureEvent
    }

    public private(set) var recognizers: [Recognizer] = []
    /// Each recognizer's answers since its last input, by index.
    private var outcomes: [Recognizer.Outcome] = []
    private var owners: [Int] = []
    /// How the recognizers relate, by index: one entry for each recognizer once `install(_:)` has run.
    public private(set) var relations = GestureRelations()
    /// From `relations`, by index: whether it is a sequence's later step, and whether a step follows it.
    private var isLaterStep: [Bool] = []
    private var hasNextStep: [Bool] = []
    /// Recognizers fed since they were last idle: the only ones timers and conflicts need to look at, so the
    /// cost follows the fingers on screen, not the size of the scene. In ascending order, the order conflicts are
    /// settled in, without duplicates; `isInEngaged` answers membership without a search.
    private var engaged: [Int] = []
    private var isInEngaged: [Bool] = []
    /// Recognizers whose answers left them idle since idle ones were last dropped from `engaged`: the only ones that
    /// may have to go. One that is still active after an input is not noted (most inputs of a drag or a press), since
    /// only a later input can make it idle, and that input notes it.
    private var changed: [Int] = []
    /// How many hold a success, and how many have a timer that can fire: most events find both zero.
    private var holdingCount = 0
    private var timedCount = 0
    /// The earliest of those timers, unless `earliestIsStale`: a recognizer whose timer was the earliest changed it,
    /// and the next `nextDeadline` looks through the engaged ones again.
    private var earliest: EventTime?
    private var earliestIsStale = false
    /// The recognizers a winner may still exclude, kept for its storage.
    private var open: [Int] = []
    #if DEBUG
        /// How many times the arena has looked at a recognizer in settling and in asking whether an input left it
        /// idle: tests check that the work of an event follows the recognizers involved, not their square.
        var looks = 0
    #endif

    public init() {}

    /// Adds a recognizer, with no relation to the others until `install(_:)`; returns its index. One carried over
    /// from another arena (a scene change) may be mid-gesture, and keeps its progress in a sequence.
    @discardableResult
    public func add(_ recognizer: Recognizer, owner: Int) -> Int {
        let index = recognizers.count
        var recognizer = recognizer
        recognizer.core.owner = owner
        recognizer.core.member = index
        recognizer.core.reportsProvisionally = false
        let outcome = recognizer.outcome
        recognizers.append(recognizer)
        owners.append(owner)
        outcomes.append(Recognizer.Outcome())
        isLaterStep.append(false)
        hasNextStep.append(false)
        isInEngaged.append(false)
        record(index, outcome)
        if outcome.isEngaged || outcome.deadline != nil { engage(index) }
        return index
    }

    /// Adds the recognizer at `member` of `previous`, as it is there, mid-gesture or not (a scene change carries it
    /// over); returns its index here.
    public func carry(_ member: Int, from previous: GestureArena, owner: Int) -> Int {
        add(previous.recognizers[member], owner: owner)
    }

    /// Installs the relations between the recognizers added, one entry for each.
    public func install(_ relations: GestureRelations) {
        precondition(relations.covers(recognizers.count), "a relation table for another arena")
        self.relations = relations
        for index in recognizers.indices {
            recognizers[index].core.reportsProvisionally = !relations.mustFail[index].isEmpty
            isLaterStep[index] = relations.after[index] != nil
            hasNextStep[index] = relations.next[index] != nil
        }
    }

    /// How many recognizers the arena holds.
    public var count: Int { recognizers.count }

    /// The owner the recognizer at `index` was added with.
    public func owner(of index: Int) -> Int { owners[index] }

    /// The gesture the recognizer at `index` recognizes.
    public func spec(of index: Int) -> GestureSpec { recognizers[index].core.spec }

    /// Whether the recognizer at `index` has finished its sequence (ended, failed or cancelled).
    public func isFinished(_ index: Int) -> Bool { outcomes[index].state.isFinished }

    /// The fingers the recognizer at `index` has down.
    public func fingers(of index: Int) -> FingerTable<GestureFingers.Track> { recognizers[index].fingers }

    /// When the gesture at `index` takes its fingers from the compositor.
    public func takesFingers(_ index: Int) -> FingerTaking { recognizers[index].core.spec.takesFingers }

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
        for position in members.indices {
            let index = members[position]
            if isLaterStep[index] && !listens(index, to: sample) { continue }
            // A finished recognizer ignores a move, and it is engaged already (it has fingers).
            if sample.phase == .move && outcomes[index].state.isFinished { continue }
            engage(index)
            record(index, recognizers[index].take(sample, into: &reports))
            if outcomes[index].awaitsWord { settleProvisional(index, into: &reports) }
        }
        resolve(at: sample.time, into: &reports, from: start)
    }

    /// The finger is taken from the recognizer at `index` (a container intercepted it, or its region went away): it
    /// fails, or is cancelled if it had begun, and lets go of the finger.
    public func release(_ finger: FingerKey, from index: Int, at time: EventTime) -> [GestureEvent] {
        var reports: [Report] = []
        record(index, recognizers[index].letGo(of: finger, at: time, into: &reports))
        return reports.map(\.event)
    }

    /// Fails the recognizer at `index`, or cancels it if it had begun (its region went away).
    public func forceFail(_ index: Int, at time: EventTime) -> [GestureEvent] {
        var reports: [Report] = []
        record(index, recognizers[index].forceFail(at: time, into: &reports))
        return reports.map(\.event)
    }

    /// Settles held successes after a change that came from outside a feed (a scene change that made a blocker anew,
    /// a finger taken from one): a success whose blockers can no longer succeed is released at `time`, since no
    /// timer or touch may come to settle it.
    public func settleHeld(at time: EventTime) -> [Report] {
        var reports: [Report] = []
        resolve(at: time, into: &reports)
        return reports
    }

    /// The earliest pending timer.
    public var nextDeadline: EventTime? {
        guard timedCount > 0 else { return nil }
        if earliestIsStale {
            earliestIsStale = false
            earliest = nil
            for position in engaged.indices {
                let outcome = outcomes[engaged[position]]
                guard !outcome.state.isFinished, let deadline = outcome.deadline else { continue }
                earliest = min(earliest ?? deadline, deadline)
            }
        }
        return earliest
    }

    /// Runs every timer due at or before `time`, in deadline order.
    public func advance(to time: EventTime) -> [Report] {
        var reports: [Report] = []
        while let deadline = nextDeadline, deadline <= time {
            // Every timer that can fire is engaged, in the arena's order; firing changes no place in `engaged`.
            for position in engaged.indices where outcomes[engaged[position]].deadline == deadline {
                let index = engaged[position]
                record(index, recognizers[index].reachDeadline(deadline, into: &reports))
                if outcomes[index].awaitsWord { settleProvisional(index, into: &reports) }
            }
            resolve(at: deadline, into: &reports)
        }
        return reports
    }

    // MARK: Answers kept

    /// Keeps the answers of the recognizer at `index` after an input.
    @inline(__always)
    private func record(_ index: Int, _ outcome: Recognizer.Outcome) {
        let before = outcomes[index]
        if before.isHolding != outcome.isHolding { holdingCount += outcome.isHolding ? 1 : -1 }
        if before.isTimed != outcome.isTimed { timedCount += outcome.isTimed ? 1 : -1 }
        if before.isTimed, before.deadline == earliest, !outcome.isTimed || outcome.deadline != before.deadline {
            earliestIsStale = true
        }
        if outcome.isTimed, !earliestIsStale, let deadline = outcome.deadline, earliest.map({ deadline < $0 }) ?? true {
            earliest = deadline
        }
        outcomes[index] = outcome
        #if DEBUG
            looks += 1
        #endif
        if !outcome.isActiveMember { changed.append(index) }
    }

    /// Engages the recognizer at `index`, tested here so that one engaged already (a finger's every move) costs no
    /// call.
    @inline(__always)
    private func engage(_ index: Int) {
        if !isInEngaged[index] { enter(index) }
    }

    private func enter(_ index: Int) {
        isInEngaged[index] = true
        var position = engaged.endIndex
        while position > engaged.startIndex && engaged[position - 1] > index { position -= 1 }
        engaged.insert(index, at: position)
    }

    /// Idle again (finished, no finger, nothing held, no timer): out of `engaged` until fed again. Only those an
    /// input left idle (`changed`) can have to go; a later input of the same event may have made one active again.
    @inline(__always)
    private func dropIdle() {
        for position in changed.indices {
            let index = changed[position]
            guard isInEngaged[index], !outcomes[index].isActiveMember else { continue }
            isInEngaged[index] = false
            var at = engaged.endIndex - 1
            while engaged[at] != index { at -= 1 }
            engaged.remove(at: at)
        }
        // One or two an event, removed one by one: `removeAll(keepingCapacity:)` cost a `replaceSubrange` call.
        while !changed.isEmpty { changed.removeLast() }
    }

    // MARK: Relations

    /// Sequencing: whether an armed later step takes this sample (its own fingers, or a new down in time); an
    /// unarmed one takes nothing.
    private func listens(_ index: Int, to sample: TouchSample) -> Bool {
        guard recognizers[index].step.armed else { return false }
        let outcome = outcomes[index]
        if outcome.state.isFinished && recognizers[index].core.fingers.down.isEmpty && outcome.hasParticipants
            && !outcome.isHolding
        {
            recognizers[index].step.armed = false  // its sequence is over: wait for the predecessor again
            return false
        }
        if sample.phase == .down {
            if recognizers[index].core.fingers.down.isEmpty, let until = recognizers[index].step.armedUntil,
                sample.time > until
            {
                recognizers[index].step.armed = false
                return false
            }
            recognizers[index].step.armedUntil = nil
            return true
        }
        return recognizers[index].core.fingers.down.contains(sample.finger)
    }

    /// The arena's word on the provisional `began` or `ended` of the recognizer at `index`: held while one it must
    /// wait for may still succeed on its fingers.
    @inline(never)
    private func settleProvisional(_ index: Int, into reports: inout [Report]) {
        let blocked = relations.mustFail[index].contains { blocks($0, index) }
        record(index, recognizers[index].settle(holding: blocked, into: &reports))
    }

    /// Whether the recognizer at `blocker` still holds `waiter` back: it shares a finger with it and may still
    /// succeed.
    private func blocks(_ blocker: Int, _ waiter: Int) -> Bool {
        (!outcomes[blocker].state.isFinished || outcomes[blocker].isHolding) && sharesFinger(blocker, waiter)
    }

    /// Whether the recognizer at `blocker` has succeeded (or begun) in the sequence it shares with `waiter`.
    private func overrules(_ blocker: Int, _ waiter: Int) -> Bool {
        let state = outcomes[blocker].state
        return (state == .ended || state.isActive) && sharesFinger(blocker, waiter)
    }

    /// Whether the two recognizers' current sequences have a finger in common.
    private func sharesFinger(_ a: Int, _ b: Int) -> Bool {
        recognizers.withUnsafeBufferPointer { all in
            let mine = all[a].core.fingers.participants
            let theirs = all[b].core.fingers.participants
            for position in mine.indices where theirs.contains(mine[position]) { return true }
            return false
        }
    }

    /// Settles conflicts raised by the reports from `start` on (earlier ones in the buffer are the caller's).
    @inline(__always)
    private func resolve(at time: EventTime, into reports: inout [Report], from start: Int = 0) {
        if needsSettling(reports, from: start) { settle(at: time, into: &reports, from: start) }
        dropIdle()
    }

    /// Whether `settle` has anything to do: a report from `start` on that began or ended (a winner), or a held
    /// success. Without either, its first pass changes nothing and it stops there; most events (a drag's
    /// `changed`) have neither.
    @inline(__always)
    private func needsSettling(_ reports: [Report], from start: Int) -> Bool {
        if holdingCount > 0 { return true }
        var position = start
        while position < reports.count {
            let kind = reports[position].event.event
            if kind == .began || kind == .ended { return true }
            position += 1
        }
        return false
    }

    /// Winners exclude the recognizers that share a finger with them, and held successes are dropped or released,
    /// until a pass changes nothing.
    @inline(never)
    private func settle(at time: EventTime, into reports: inout [Report], from start: Int) {
        var examined = start
        var changing = true
        // The engaged recognizers a winner may still exclude (unfinished, or holding a success), in the arena's
        // order: a crowded region's finger ends many taps at once, and each of those winners looking through every
        // engaged one would make the work the square of the recognizers. Within a pass only `arm` opens one more.
        var open = self.open
        self.open = []
        defer {
            open.removeAll(keepingCapacity: true)
            self.open = open
        }
        while changing {
            changing = false
            collectOpen(into: &open)
            // Winners since the last pass exclude the others that share a finger.
            while examined < reports.count {
                let report = reports[examined]
                examined += 1
                guard report.event.event == .began || report.event.event == .ended else { continue }
                // The report names its recognizer: no search of the arena for it.
                let winner = report.member
                if hasNextStep[winner], let next = relations.next[winner],
                    report.event.event == Self.completion(of: recognizers[winner].core.spec.kind)
                {
                    arm(next, following: winner, at: time, into: &reports)
                    collectOpen(into: &open)
                }
                for position in open.indices where open[position] != winner {
                    let index = open[position]
                    #if DEBUG
                        looks += 1
                    #endif
                    // Finished by an earlier winner, and holding nothing: there is nothing to fail.
                    let other = outcomes[index]
                    guard other.isHolding || !other.state.isFinished, other.hasParticipants else { continue }
                    guard sharesFinger(index, winner) else { continue }
                    guard !relations.mayRunTogether(winner, index) else { continue }
                    if isLaterStep[index] || hasNextStep[index], relations.isSequenced(index, with: winner) { continue }
                    record(index, recognizers[index].forceFail(at: time, into: &reports))
                    changing = true
                }
            }
            // Held successes: dropped when one they wait for succeeded, released when all have failed (nothing here
            // changes `engaged`).
            for position in engaged.indices where outcomes[engaged[position]].isHolding {
                let index = engaged[position]
                let blockers = relations.mustFail[index]
                if blockers.contains(where: { overrules($0, index) }) {
                    record(index, recognizers[index].forceFail(at: time, into: &reports))
                    changing = true
                } else if !blockers.contains(where: { blocks($0, index) }) {
                    let restarting = relations.after[index] == nil
                    record(index, recognizers[index].release(at: time, restarting: restarting, into: &reports))
                    if outcomes[index].awaitsWord { settleProvisional(index, into: &reports) }
                    changing = true
                }
            }
        }
    }

    /// The engaged recognizers that are unfinished or hold a success, in order: the only ones `forceFail` changes.
    private func collectOpen(into open: inout [Int]) {
        open.removeAll(keepingCapacity: true)
        for position in engaged.indices {
            let index = engaged[position]
            if outcomes[index].isHolding || !outcomes[index].state.isFinished { open.append(index) }
        }
    }

    /// The report that completes a sequence's step: a long press is complete when its time is up (its `began`, as
    /// SwiftUI's LongPressGesture ends then); every other gesture when it ends.
    static func completion(of kind: GestureKind) -> GestureEventKind {
        kind == .longPress || kind == .longPressDrag ? .began : .ended
    }

    /// Sequencing: the step at `first` was recognized at `time`; the step at `index` starts from its fingers still
    /// down, or waits for the next down within `GestureDefaults.doubleTapInterval` when none is.
    private func arm(_ index: Int, following first: Int, at time: EventTime, into reports: inout [Report]) {
        engage(index)
        #if DEBUG
            looks += 1
        #endif
        changed.append(index)
        let fingers = recognizers[first].core.fingers.down
        recognizers[index].step.armed = true
        recognizers[index].step.armedUntil = fingers.isEmpty ? time + GestureDefaults.doubleTapInterval : nil
        for key in fingers.keys.sorted() {
            guard let track = fingers[key] else { continue }
            let down = TouchSample(finger: key, phase: .down, location: track.location, time: time)
            record(index, recognizers[index].take(down, into: &reports))
            if outcomes[index].awaitsWord { settleProvisional(index, into: &reports) }
        }
    }
}
