import TouchCore
import TouchJSON

/// One gesture recognizer: a value, and a state machine with one mutating entry for each input it can get. Each
/// entry appends what the recognizer reports to the caller's buffer and returns an `Outcome`: what its owner (the
/// arena) must know and do next, such as settling a provisional report or running its timer by a new deadline.
///
/// - Inputs: a finger's down, move, lift or cancel (`take`); its deadline reached (`reachDeadline`); the arena's
///   word on a provisional report (`settle`); a held success released once every recognizer it waited for has
///   failed (`release`); a failure forced by a winner (`forceFail`); a finger taken away (`letGo`).
/// - The per-gesture rules are in `TapRule`, `LongPressRule`, `DragRule`, `SwipeRule` and `TwoFingerRule`, one a
///   field, the one `spec.kind` names run; `RecognizerCore` holds what they share.
///
/// It follows one sequence of touches: it starts `possible` at the first down and, once finished (ended, failed or
/// cancelled) and with no finger left down, resets for the next sequence. It knows nothing of other recognizers:
/// whether its reports wait (`RecognizerCore.reportsProvisionally`), and for what, is the arena's. Time comes only
/// from the samples and the deadline: there is no clock inside.
public struct Recognizer: Sendable {
    /// What the owner must know after an input: every question the arena asks on each event, answered once, so it
    /// keeps them beside the recognizers and never reads (or copies) a recognizer to ask.
    struct Outcome: Equatable, Sendable {
        var state: GestureState = .possible
        /// A success is held for others to fail (`release` or `forceFail` ends it).
        var isHolding = false
        /// A `began` or `ended` waits for the arena's word (`settle`) before anything else.
        var awaitsWord = false
        /// Engaged in a sequence: has fingers, or has not finished.
        var isEngaged = false
        /// Some finger took part in the current sequence.
        var hasParticipants = false
        /// When `reachDeadline` must run next.
        var deadline: EventTime?

        /// A timer that can still fire.
        var isTimed: Bool { deadline != nil && !state.isFinished }
        /// Worth following on the next events: engaged, or a timer to run.
        var isActiveMember: Bool { isEngaged || isTimed }
    }

    var core: RecognizerCore
    /// The rules, one field each, of which the one `spec.kind` names runs: an enum's payload cannot be changed in
    /// place, and copying it out and back on every event would copy the swipe's table with it.
    private var tap = TapRule()
    private var longPress = LongPressRule()
    private var drag = DragRule()
    private var swipe = SwipeRule()
    private var twoFinger = TwoFingerRule()
    /// Success held back until the recognizers it must wait for fail (a single tap waiting for a double tap).
    private var pending: GestureEvent? {
        didSet { isHolding = pending != nil }
    }
    /// Whether a success is held (`pending` is set), without copying the held event to ask.
    public private(set) var isHolding = false
    /// The sample whose last steps (`finishSample`) wait for the provisional report to be settled.
    private var unfinishedSample: TouchSample?
    /// Fingers that went down while a finished success was held (a single tap waiting for a double tap's window):
    /// they are not part of it, and start the next sequence once it is released.
    private var lateFingers: [FingerKey] = []
    /// Its progress as a sequence's later step: the arena's, kept here so that it travels with the recognizer into
    /// the next scene's arena.
    var step = SequenceStep()

    public init(spec: GestureSpec) {
        core = RecognizerCore(spec: spec)
    }

    public var spec: GestureSpec { core.spec }
    /// The spec's name, interned once the scene is installed: what every report carries.
    public var nameID: InternedString { core.nameID }
    public var state: GestureState { core.state }
    /// The fingers down, with where and when they went down and where they are now. A finished recognizer stops
    /// following their moves: nothing reads their places before its next sequence starts.
    public var fingers: FingerTable<GestureFingers.Track> { core.fingers.down }
    /// Every finger that took part in the current sequence.
    public var participants: [FingerKey] { core.fingers.participants }
    public var deadline: EventTime? { core.deadline }

    /// The answers the arena keeps.
    @inline(__always)
    var outcome: Outcome {
        let finished = core.state.isFinished
        let hasParticipants = !core.fingers.participants.isEmpty
        return Outcome(
            state: core.state, isHolding: isHolding, awaitsWord: core.provisional != nil,
            isEngaged: hasParticipants && (!finished || !core.fingers.down.isEmpty || isHolding),
            hasParticipants: hasParticipants, deadline: core.deadline)
    }

    // MARK: Inputs

    /// A finger's change. A `began` or `ended` it makes may wait for `settle` (`Outcome.awaitsWord`).
    @inline(__always)
    mutating func take(_ sample: TouchSample, into reports: inout [GestureArena.Report]) -> Outcome {
        process(sample, into: &reports)
        return outcome
    }

    /// Runs the rule's timer, when `time` has reached the deadline and the gesture is not finished.
    mutating func reachDeadline(_ time: EventTime, into reports: inout [GestureArena.Report]) -> Outcome {
        if let deadline = core.deadline, deadline <= time, !core.state.isFinished {
            core.deadline = nil
            timerFired(at: deadline, into: &reports)
        }
        return outcome
    }

    /// The arena's word on the provisional report: held until the recognizers this one waits for have failed, or let
    /// through. Then the sample that made it finishes as it would have.
    mutating func settle(holding: Bool, into reports: inout [GestureArena.Report]) -> Outcome {
        guard let event = core.provisional else { return outcome }
        core.provisional = nil
        if holding {
            // The success is final, so this recognizer's own timer (a tap's hold limit) must not fire and fail it
            // while it waits.
            core.state = .possible
            pending = event
            core.deadline = nil
        } else {
            core.state = RecognizerCore.state(after: event.event) ?? core.state
            core.reported = true
            reports.append(GestureArena.Report(owner: core.owner, member: core.member, event: event))
            if core.state.isFinished { core.deadline = nil }
        }
        if let sample = unfinishedSample {
            unfinishedSample = nil
            finishSample(sample, into: &reports)
        }
        return outcome
    }

    /// Releases a held success (or begin) once every recognizer it waited for has failed. A released begin keeps
    /// the measurements it was recognized with; the next movement reports the current ones. `restarting`: whether
    /// fingers that went down while it was held start a new sequence (not for a sequence's later step, which
    /// starts only when armed by its predecessor again).
    mutating func release(at time: EventTime, restarting: Bool, into reports: inout [GestureArena.Report]) -> Outcome {
        guard var event = pending else { return outcome }
        pending = nil
        event.time = time
        reports.append(GestureArena.Report(owner: core.owner, member: core.member, event: event))
        core.reported = true
        if event.event == .began {
            core.state = .began
            core.lastActive = RecognizerCore.ActiveMeasures(event)
        } else {
            core.state = .ended
            core.deadline = nil
            restartWithLateFingers(at: time, restarting: restarting, into: &reports)
        }
        return outcome
    }

    /// Forced failure (another recognizer won): cancels an active gesture, fails a possible one.
    mutating func forceFail(at time: EventTime, into reports: inout [GestureArena.Report]) -> Outcome {
        guard !core.state.isFinished else { return outcome }
        if core.state.isActive {
            cancel(at: time, into: &reports)
        } else {
            fail(at: time, into: &reports)
        }
        return outcome
    }

    /// A finger taken from this recognizer (a container intercepted it): as UIKit's `touchesCancelled`, the
    /// recognizer fails, or is cancelled if it had begun, and lets go of the finger, whose lift it will never hear,
    /// so that it resets at its next touch.
    mutating func letGo(of finger: FingerKey, at time: EventTime, into reports: inout [GestureArena.Report]) -> Outcome
    {
        _ = forceFail(at: time, into: &reports)
        core.fingers.lift(finger)
        forgetLate(finger)
        return outcome
    }

    // MARK: Alone, outside an arena: it waits for nobody.

    /// Feeds one finger change; returns what the recognizer reports.
    public mutating func handle(_ sample: TouchSample) -> [GestureEvent] {
        var reports: [GestureArena.Report] = []
        if take(sample, into: &reports).awaitsWord { _ = settle(holding: false, into: &reports) }
        return reports.map(\.event)
    }

    /// Runs timers due at `time`.
    public mutating func fire(at time: EventTime) -> [GestureEvent] {
        var reports: [GestureArena.Report] = []
        if reachDeadline(time, into: &reports).awaitsWord { _ = settle(holding: false, into: &reports) }
        return reports.map(\.event)
    }

    /// Forced failure: cancels an active gesture, fails a possible one.
    public mutating func forceFail(at time: EventTime) -> [GestureEvent] {
        var reports: [GestureArena.Report] = []
        _ = forceFail(at: time, into: &reports)
        return reports.map(\.event)
    }

    // MARK: The sequence

    private mutating func process(_ sample: TouchSample, into reports: inout [GestureArena.Report]) {
        if core.state.isFinished && core.fingers.down.isEmpty && sample.phase == .down { reset() }
        // A success held for others to fail is final: later fingers are only tracked.
        let listening = !core.state.isFinished && !isHolding
        switch sample.phase {
        case .down:
            if isHolding, pending?.event == .ended { lateFingers.append(sample.finger) }
            core.fingers.press(sample)
            if listening { began(sample, into: &reports) }
        case .move:
            // Finished: a move changes nothing it keeps or reports. Its fingers' places are read only by a report
            // (finished, it makes none until reset), by a sequence's arming of the step after it (not finished
            // before that sample), and by `restartWithLateFingers` of one releasing a held success (holding is
            // `possible`, not finished); it resets only with no finger down, on the next down.
            if core.state.isFinished { break }
            core.fingers.follow(sample)
            if listening { moved(sample, into: &reports) }
        case .up:
            core.fingers.follow(sample)
            if listening { ended(sample, into: &reports) }
            core.fingers.lift(sample.finger)
            forgetLate(sample.finger)
        case .cancel:
            core.fingers.lift(sample.finger)
            forgetLate(sample.finger)
            if !core.state.isFinished { cancel(at: sample.time, into: &reports) }
        }
        if core.provisional != nil {
            unfinishedSample = sample
        } else {
            finishSample(sample, into: &reports)
        }
    }

    /// The steps of a sample that depend on whether its report was held.
    @inline(__always)
    private mutating func finishSample(_ sample: TouchSample, into reports: inout [GestureArena.Report]) {
        // A begin held for others to fail whose fingers have all lifted never happened.
        if sample.phase == .up, core.fingers.down.isEmpty, isHolding, pending?.event == .began {
            fail(at: sample.time, into: &reports)
        }
        if !core.state.isFinished { core.fingers.record(at: sample.time, ofFirst: core.followedCount) }
    }

    @inline(__always)
    private mutating func forgetLate(_ finger: FingerKey) {
        if !lateFingers.isEmpty { lateFingers.removeAll { $0 == finger } }
    }

    /// A success released while fingers that came after it are down (a second tap too far from the first for the
    /// double tap, which failed on it): those fingers start the next sequence, from where and when they went down,
    /// as they would have had nothing been held. Only when every finger down is a late one: otherwise they share
    /// the sequence that just ended.
    private mutating func restartWithLateFingers(
        at time: EventTime, restarting: Bool, into reports: inout [GestureArena.Report]
    ) {
        guard restarting, !lateFingers.isEmpty, lateFingers.count == core.fingers.count else {
            lateFingers.removeAll()
            return
        }
        let late = lateFingers.compactMap { key in core.fingers.down[key].map { (key, $0) } }
        lateFingers.removeAll()
        reset()
        for (key, _) in late { core.fingers.lift(key) }
        for (key, track) in late {
            process(
                TouchSample(finger: key, phase: .down, location: track.start, time: track.startTime), into: &reports)
            if track.location != track.start {
                process(TouchSample(finger: key, phase: .move, location: track.location, time: time), into: &reports)
            }
        }
    }

    private mutating func fail(at time: EventTime, into reports: inout [GestureArena.Report]) {
        core.fail(at: time, into: &reports)
        pending = nil
    }

    private mutating func cancel(at time: EventTime, into reports: inout [GestureArena.Report]) {
        core.cancel(at: time, into: &reports)
        pending = nil
    }

    private mutating func reset() {
        core.reset()
        lateFingers.removeAll()
        pending = nil
        switch core.spec.kind {
        case .tap: tap.reset()
        case .swipe: swipe.reset()
        case .pinch, .rotate: twoFinger.reset()
        case .longPress, .longPressDrag, .drag: break
        }
    }

    // MARK: The rule spec.kind names

    @inline(__always)
    private mutating func began(_ sample: TouchSample, into reports: inout [GestureArena.Report]) {
        switch core.spec.kind {
        case .tap: tap.began(sample, &core, &reports)
        case .longPress, .longPressDrag: longPress.began(sample, &core, &reports)
        case .drag: drag.began(sample, &core, &reports)
        case .swipe: swipe.began(sample, &core, &reports)
        case .pinch, .rotate: twoFinger.began(sample, &core, &reports)
        }
    }

    @inline(__always)
    private mutating func moved(_ sample: TouchSample, into reports: inout [GestureArena.Report]) {
        switch core.spec.kind {
        case .tap: tap.moved(sample, &core, &reports)
        case .longPress, .longPressDrag: longPress.moved(sample, &core, &reports)
        case .drag: drag.moved(sample, &core, &reports)
        case .swipe: swipe.moved(sample, &core, &reports)
        case .pinch, .rotate: twoFinger.moved(sample, &core, &reports)
        }
    }

    @inline(__always)
    private mutating func ended(_ sample: TouchSample, into reports: inout [GestureArena.Report]) {
        switch core.spec.kind {
        case .tap: tap.ended(sample, &core, &reports)
        case .longPress, .longPressDrag: longPress.ended(sample, &core, &reports)
        case .drag: drag.ended(sample, &core, &reports)
        case .swipe: swipe.ended(sample, &core, &reports)
        case .pinch, .rotate: twoFinger.ended(sample, &core, &reports)
        }
    }

    private mutating func timerFired(at time: EventTime, into reports: inout [GestureArena.Report]) {
        switch core.spec.kind {
        case .tap: tap.timerFired(at: time, &core, &reports)
        case .longPress, .longPressDrag: longPress.timerFired(at: time, &core, &reports)
        case .swipe: swipe.timerFired(at: time, &core, &reports)
        case .drag, .pinch, .rotate: break
        }
    }
}
