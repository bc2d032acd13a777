import TouchCore
import TouchJSON

/// Base of the gesture recognizers: finger bookkeeping, state and event emission. Subclasses implement the
/// per-gesture rules in `began(_:)`, `moved(_:)`, `ended(_:)` and `timerFired(at:)`.
///
/// A recognizer follows one sequence of touches: it starts `possible` at the first down and, once finished
/// (ended, failed or cancelled) and with no finger left down, resets for the next sequence. Time comes only from
/// the samples and from `fire(at:)`: there is no clock inside.
public class Recognizer {
    public let spec: GestureSpec
    public private(set) var state: GestureState = .possible
    /// Fingers currently down, with where and when they went down and where they are now. A finished recognizer
    /// stops following their moves (`ignoresMoves`): nothing reads their places before its next sequence starts.
    public private(set) var fingers = FingerTable<FingerTrack>()
    /// Every finger that took part in the current sequence (for arbitration), each once, in the order they went
    /// down: a few keys, compared one by one (a set hashed each on every event).
    public private(set) var participants: [FingerKey] = []
    /// When `fire(at:)` must be called next.
    public internal(set) var deadline: EventTime?
    /// Success held back until the recognizers it must wait for fail (a single tap waiting for a double tap): the
    /// arena holds it (`settleProvisional(holding:)`) and later releases or drops it.
    public internal(set) var pending: GestureEvent? {
        didSet { isHolding = pending != nil }
    }
    /// Whether a success is held (`pending` is set): asked on every event, where reading `pending` itself copied the
    /// whole event, its name included.
    public private(set) var isHolding = false
    /// Whether the arena's relations make this recognizer wait for others (`GestureRelations.mustFail`): then a
    /// `began` or `ended` is provisional until the arena has settled it, since only the arena sees the others.
    var waitsForOthers = false
    /// Whether the arena's relations make it a later step of a sequence (`GestureRelations.after`).
    var isLaterStep = false
    /// Whether the arena's relations give it a later step (`GestureRelations.next`).
    var hasNextStep = false
    /// Its progress as a sequence's later step, which the arena keeps here so that it travels with the recognizer
    /// into the next scene's arena.
    var step = SequenceStep()
    /// A `began` or `ended` reported while `waitsForOthers`, for the arena to hold or let through.
    private var provisional: GestureEvent? {
        didSet { hasProvisional = provisional != nil }
    }
    /// Whether a report waits for the arena's word (`provisional` is set): asked for every event, as `isHolding`.
    private(set) var hasProvisional = false
    /// The sample whose last steps (`finishSample`) wait for the provisional report to be settled.
    private var unfinishedSample: TouchSample?
    /// Whether this recognizer has reported anything in the current sequence (so a failure is worth reporting).
    var reported = false
    /// The last `began`/`changed` report of this sequence: a `cancelled` carries its measurements.
    private var lastActive: GestureEvent?
    /// What the recognizer reported since it was last asked, as its owner's reports: the arena takes the buffer
    /// whole when its own is empty (`handle(_:into:)`), with no copy.
    private var outbox: [GestureArena.Report] = []
    /// The owner it was added to its arena with (`GestureArena.add`), which its reports carry.
    var owner = 0
    /// Its index in the arena it was last added to (`GestureArena.add`): its reports carry it, and relations name
    /// it, so nothing searches the arena for a recognizer.
    public internal(set) var member = 0
    /// Fingers that went down while a finished success was held (a single tap waiting for a double tap's window):
    /// they are not part of it, and start the next sequence once it is released.
    private var lateFingers: [FingerKey] = []
    private var window = VelocityWindow()

    public struct FingerTrack: Equatable, Sendable {
        public var start: Point
        public var startTime: EventTime
        public var location: Point
    }

    /// The spec's name, interned once the scene is installed: what every report carries.
    public let nameID: InternedString

    public init(spec: GestureSpec) {
        self.spec = spec
        nameID = InternedString(spec.name)
    }

    /// Finished: a move changes nothing it keeps or reports. Its fingers' places are read only by a report
    /// (finished, it makes none until reset), by a sequence's `arm(following:)` of the recognizer that has just
    /// completed (not finished before that sample), and by `restartWithLateFingers` of one releasing a held
    /// success (holding is `possible`, not finished); it resets only with no finger down, on the next down. The
    /// arena skips it for a move altogether.
    public var ignoresMoves: Bool { state.isFinished }

    /// Engaged in a sequence: has fingers, or has not finished.
    public var isEngaged: Bool { !participants.isEmpty && (!state.isFinished || !fingers.isEmpty || isHolding) }

    /// Makes the recognizer for a spec.
    public static func make(_ spec: GestureSpec) -> Recognizer {
        switch spec.kind {
        case .tap: TapRecognizer(spec: spec)
        case .longPress, .longPressDrag: LongPressRecognizer(spec: spec)
        case .drag: DragRecognizer(spec: spec)
        case .swipe: SwipeRecognizer(spec: spec)
        case .pinch, .rotate: TwoFingerRecognizer(spec: spec)
        }
    }

    /// Feeds one finger change; returns what the recognizer reports. Alone, outside an arena, it waits for nobody.
    public func handle(_ sample: TouchSample) -> [GestureEvent] {
        process(sample)
        if hasProvisional { settleProvisional(holding: false) }
        return takeOutbox()
    }

    /// Feeds one finger change; the arena's path. What the recognizer reports goes to `reports`, as its owner's,
    /// unless a report waits for the arena's word (`hasProvisional`): then it stays until `moveReports(into:)`.
    func take(_ sample: TouchSample, into reports: inout [GestureArena.Report]) {
        process(sample)
        if !hasProvisional { moveReports(into: &reports) }
    }

    /// The arena's word on the provisional report: held until the recognizers this one waits for have failed, or let
    /// through. Then the sample that made it finishes as it would have.
    func settleProvisional(holding: Bool) {
        guard let event = provisional else { return }
        provisional = nil
        if holding {
            // The success is final, so this recognizer's own timer (a tap's hold limit) must not fire and fail it
            // while it waits.
            state = .possible
            pending = event
            deadline = nil
        } else {
            state = Self.state(after: event.event) ?? state
            reported = true
            outbox.append(GestureArena.Report(owner: owner, member: member, event: event))
            if state.isFinished { deadline = nil }
        }
        if let sample = unfinishedSample {
            unfinishedSample = nil
            finishSample(sample)
        }
    }

    /// Appends what the recognizer reported to `reports`, as its owner's, allocating nothing (an array returned for
    /// each report was two allocations a drag event).
    @inline(__always)
    func moveReports(into reports: inout [GestureArena.Report]) {
        guard !outbox.isEmpty else { return }
        if reports.isEmpty {
            // The usual case (one recognizer reporting): the two buffers trade places, the reports leave without a
            // copy, and the outbox keeps the caller's empty storage for the next time.
            swap(&reports, &outbox)
            return
        }
        // By position: `for report in outbox` retained and released the array on every event.
        for position in outbox.indices { reports.append(outbox[position]) }
        // One or two reports, removed one by one: `removeAll(keepingCapacity:)` cost a `replaceSubrange` call.
        while !outbox.isEmpty { outbox.removeLast() }
    }

    private func process(_ sample: TouchSample) {
        if state.isFinished && fingers.isEmpty && sample.phase == .down { reset() }
        // A success held for others to fail is final: later fingers are only tracked.
        let listening = !state.isFinished && !isHolding
        switch sample.phase {
        case .down:
            if isHolding, pending?.event == .ended { lateFingers.append(sample.finger) }
            fingers[sample.finger] = FingerTrack(
                start: sample.location, startTime: sample.time, location: sample.location)
            if !participants.contains(sample.finger) { participants.append(sample.finger) }
            if listening { began(sample) }
        case .move:
            if ignoresMoves { break }
            follow(sample)
            if listening { moved(sample) }
        case .up:
            follow(sample)
            if listening { ended(sample) }
            fingers[sample.finger] = nil
            lateFingers.removeAll { $0 == sample.finger }
        case .cancel:
            fingers[sample.finger] = nil
            lateFingers.removeAll { $0 == sample.finger }
            if !state.isFinished { cancel(at: sample.time) }
        }
        if hasProvisional {
            unfinishedSample = sample
        } else {
            finishSample(sample)
        }
    }

    /// The steps of a sample that depend on whether its report was held.
    @inline(__always)
    private func finishSample(_ sample: TouchSample) {
        // A begin held for others to fail whose fingers have all lifted never happened.
        if sample.phase == .up, fingers.isEmpty, pending?.event == .began { fail(at: sample.time) }
        if !state.isFinished { recordSample(sample.time) }
    }

    /// Moves a tracked finger in place, through its position in the table.
    private func follow(_ sample: TouchSample) {
        guard let position = fingers.position(of: sample.finger) else { return }
        fingers[position: position].location = sample.location
    }

    /// Runs timers due at `time`. Alone, outside an arena, it waits for nobody.
    public func fire(at time: EventTime) -> [GestureEvent] {
        runTimer(at: time)
        if hasProvisional { settleProvisional(holding: false) }
        return takeOutbox()
    }

    /// Runs timers due at `time`, keeping what it reports for `moveReports(into:)`: the arena's path.
    func runTimer(at time: EventTime) {
        if let deadline, deadline <= time, !state.isFinished {
            self.deadline = nil
            timerFired(at: deadline)
        }
    }

    /// Forced failure (another recognizer won): cancels an active gesture, fails a possible one.
    public func forceFail(at time: EventTime) -> [GestureEvent] {
        guard !state.isFinished else { return [] }
        if state.isActive {
            cancel(at: time)
        } else {
            fail(at: time)
        }
        return takeOutbox()
    }

    /// A finger taken from this recognizer (a container intercepted it): as UIKit's `touchesCancelled`, the
    /// recognizer fails, or is cancelled if it had begun, and lets go of the finger, whose lift it will never hear.
    /// Holding on to it kept the recognizer from resetting at the next down, so it never recognized again.
    public func release(_ finger: FingerKey, at time: EventTime) -> [GestureEvent] {
        let events = forceFail(at: time)
        fingers[finger] = nil
        lateFingers.removeAll { $0 == finger }
        return events
    }

    /// Releases a held success (or begin) once every recognizer it waited for has failed. A released begin keeps
    /// the measurements it was recognized with; the next movement reports the current ones. `restarting`: whether
    /// fingers that went down while it was held start a new sequence (not for a sequence's later step, which
    /// starts only when armed by its predecessor again). Reports are kept for `moveReports(into:)`.
    func releasePending(at time: EventTime, restarting: Bool) {
        guard var event = pending else { return }
        pending = nil
        event.time = time
        outbox.append(GestureArena.Report(owner: owner, member: member, event: event))
        reported = true
        if event.event == .began {
            state = .began
            lastActive = event
        } else {
            state = .ended
            deadline = nil
            restartWithLateFingers(at: time, restarting: restarting)
        }
    }

    /// A success released while fingers that came after it are down (a second tap too far from the first for the
    /// double tap, which failed on it): those fingers start the next sequence, from where and when they went down,
    /// as they would have had nothing been held. Before, the sequence ended with them in it and the second tap
    /// was lost. Only when every finger down is a late one: otherwise they share the sequence that just ended.
    private func restartWithLateFingers(at time: EventTime, restarting: Bool) {
        guard restarting, !lateFingers.isEmpty, lateFingers.count == fingers.count else {
            lateFingers.removeAll()
            return
        }
        let late = lateFingers.compactMap { key in fingers[key].map { (key, $0) } }
        lateFingers.removeAll()
        let released = outbox
        outbox.removeAll()
        reset()
        for (key, _) in late { fingers[key] = nil }
        for (key, track) in late {
            process(TouchSample(finger: key, phase: .down, location: track.start, time: track.startTime))
            if track.location != track.start {
                process(TouchSample(finger: key, phase: .move, location: track.location, time: time))
            }
        }
        outbox = released + outbox
    }

    /// Whether this recognizer still holds `waiter` back: it shares a finger with it and may still succeed.
    public func blocks(_ waiter: Recognizer) -> Bool {
        (!state.isFinished || isHolding) && sharesFinger(with: waiter)
    }

    /// Whether this recognizer has succeeded (or begun) in the sequence it shares with `waiter`.
    func overrules(_ waiter: Recognizer) -> Bool {
        (state == .ended || state.isActive) && sharesFinger(with: waiter)
    }

    /// Whether the two recognizers' current sequences have a finger in common.
    public func sharesFinger(with other: Recognizer) -> Bool {
        for finger in participants where other.participants.contains(finger) { return true }
        return false
    }

    // MARK: For subclasses

    func began(_ sample: TouchSample) {}
    func moved(_ sample: TouchSample) {}
    func ended(_ sample: TouchSample) {}
    func timerFired(at time: EventTime) {}

    /// Reports an event; `began`/`changed`/`ended`/`cancelled` also set the state.
    func report(_ kind: GestureEventKind, at time: EventTime, configure: (inout GestureEvent) -> Void = { _ in }) {
        var event = GestureEvent(
            nameID: nameID, kind: spec.kind, event: kind, time: time, location: centroid, fingers: followedCount)
        configure(&event)
        if kind == .began || kind == .changed { lastActive = event }
        if (kind == .ended || kind == .began) && waitsForOthers {
            // The recognizers it waits for may still succeed: the arena, which sees them, settles it.
            provisional = event
            return
        }
        if let next = Self.state(after: kind) { state = next }
        reported = true
        outbox.append(GestureArena.Report(owner: owner, member: member, event: event))
        if state.isFinished { deadline = nil }
    }

    /// The state a report puts the recognizer in (`pressing` changes none).
    private static func state(after kind: GestureEventKind) -> GestureState? {
        switch kind {
        case .began: .began
        case .changed: .changed
        case .ended: .ended
        case .cancelled: .cancelled
        case .failed: .failed
        case .pressing: nil
        }
    }

    /// Fails, reporting it only if this sequence already reported something.
    func fail(at time: EventTime) {
        if reported {
            report(.failed, at: time)
        } else {
            state = .failed
        }
        pending = nil
        deadline = nil
    }

    func cancel(at time: EventTime) {
        if state.isActive {
            // Where the gesture had got to (translation, scale, rotation), not zeros: a client that applied the
            // drag live must know how far to undo it. Velocity stays zero: nothing cancelled may be flung.
            let last = lastActive
            report(.cancelled, at: time) { event in
                guard let last else { return }
                event.translation = last.translation
                event.scale = last.scale
                event.rotation = last.rotation
            }
        } else {
            fail(at: time)
        }
        deadline = nil
    }

    var fingerCount: Int { fingers.count }

    /// How many of the fingers down, the first in the order they went down, the gesture follows: its centroid,
    /// velocity and reported finger count are theirs. All of them, unless a subclass keeps to its own.
    var followedCount: Int { fingers.count }

    var centroid: Point { mean(of: \.location) }

    var startCentroid: Point { mean(of: \.start) }

    /// The mean of one point of every followed finger (`lastCentroid` with none).
    @inline(__always)
    private func mean(of point: (FingerTrack) -> Point) -> Point {
        let count = followedCount
        switch count {
        case 0: return lastCentroid
        case 1:
            // The sum below for one finger, without its loop (asked three times for each move of a one-finger drag).
            // Kept exact: the sum starts from zero, so -0.0 becomes +0.0 as there, and a division by one changes
            // nothing.
            let only = point(fingers.values[0])
            return Point(x: 0.0 + only.x, y: 0.0 + only.y)
        default: break
        }
        var sum = Point.zero
        for position in 0..<count { sum = sum + point(fingers.values[position]) }
        return Point(x: sum.x / Double(count), y: sum.y / Double(count))
    }

    /// The greatest distance any current finger has moved from where it went down.
    var maximumMovement: Double {
        fingers.values.reduce(0) { max($0, $1.location.distance(to: $1.start)) }
    }

    /// Centroid velocity over the recent samples, units per second.
    var velocity: Point { window.velocity }

    private var lastCentroid = Point.zero

    @inline(__always)
    private func recordSample(_ time: EventTime) {
        guard !fingers.isEmpty else { return }
        lastCentroid = centroid
        window.record(lastCentroid, at: time)
    }

    private func takeOutbox() -> [GestureEvent] {
        let events = outbox.map(\.event)
        outbox.removeAll(keepingCapacity: true)
        return events
    }

    func reset() {
        state = .possible
        lateFingers.removeAll()
        participants.removeAll(keepingCapacity: true)
        deadline = nil
        pending = nil
        reported = false
        lastActive = nil
        window.removeAll()
        resetGesture()
    }

    func resetGesture() {}
}
