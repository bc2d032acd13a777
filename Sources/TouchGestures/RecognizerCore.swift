import TouchCore
import TouchJSON

/// What every per-gesture rule reads and writes: the spec, the state, the fingers, the deadline, and reporting.
/// The rules (`TapRule`, `LongPressRule`, `DragRule`, `SwipeRule`, `TwoFingerRule`) get it `inout` from their
/// `Recognizer`, with the buffer their reports go to.
struct RecognizerCore: Sendable {
    let spec: GestureSpec
    /// The spec's name, interned once the scene is installed: what every report carries.
    let nameID: InternedString
    var state: GestureState = .possible
    var fingers = GestureFingers()
    /// When the rule's `timerFired` must run next.
    var deadline: EventTime?
    /// Whether this recognizer has reported anything in the current sequence (so a failure is worth reporting).
    var reported = false
    /// The measurements of the last `began`/`changed` report of this sequence, which a `cancelled` carries: those
    /// alone, since they are kept at every report.
    var lastActive: ActiveMeasures?
    /// Whether a `began` or `ended` is provisional until the arena has settled it (the arena's relations make this
    /// recognizer wait for others, which only the arena sees).
    var reportsProvisionally = false
    /// A `began` or `ended` reported while `reportsProvisionally`, for the arena to hold or let through.
    var provisional: GestureEvent?
    /// The owner and index the arena added it with, which its reports carry.
    var owner = 0
    var member = 0
    /// How many of the fingers down, the first in the order they went down, the gesture follows: its centroid,
    /// velocity and reported finger count are theirs. A drag keeps to its own; every other gesture follows all.
    private let followsAtMost: Int

    init(spec: GestureSpec) {
        self.spec = spec
        nameID = InternedString(spec.name)
        followsAtMost = spec.kind == .drag ? spec.fingers : .max
    }

    // Each asked of the core the rules hold `inout`: always inlined, since a call would take a copy of the whole
    // core (its spec, fingers and last report) for `self`.
    var fingerCount: Int {
        @inline(__always) get { fingers.count }
    }
    var followedCount: Int {
        @inline(__always) get { min(fingers.count, followsAtMost) }
    }
    var centroid: Point {
        @inline(__always) get { fingers.centroid(ofFirst: followedCount) }
    }
    var startCentroid: Point {
        @inline(__always) get { fingers.startCentroid(ofFirst: followedCount) }
    }
    var maximumMovement: Double {
        @inline(__always) get { fingers.maximumMovement }
    }
    var velocity: Point {
        @inline(__always) get { fingers.velocity }
    }

    /// A report of this gesture at `time`, at the followed fingers' centroid, for the caller to fill in and pass to
    /// `report(_:into:)`.
    @inline(__always)
    func event(_ kind: GestureEventKind, at time: EventTime) -> GestureEvent {
        GestureEvent(
            nameID: nameID, kind: spec.kind, event: kind, time: time, location: centroid, fingers: followedCount)
    }

    /// Reports an event; `began`/`changed`/`ended`/`cancelled` also set the state. Always inlined: the rule that
    /// makes the event then writes it into the buffer, not into a copy passed to a call.
    @inline(__always)
    mutating func report(_ event: GestureEvent, into reports: inout [GestureArena.Report]) {
        let kind = event.event
        if kind == .began || kind == .changed { lastActive = ActiveMeasures(event) }
        if (kind == .ended || kind == .began) && reportsProvisionally {
            // The recognizers it waits for may still succeed: the arena, which sees them, settles it.
            provisional = event
            return
        }
        if let next = Self.state(after: kind) { state = next }
        reported = true
        reports.append(GestureArena.Report(owner: owner, member: member, event: event))
        if state.isFinished { deadline = nil }
    }

    /// Reports a bare event of `kind`.
    mutating func report(_ kind: GestureEventKind, at time: EventTime, into reports: inout [GestureArena.Report]) {
        report(event(kind, at: time), into: &reports)
    }

    /// The state a report puts the recognizer in (`pressing` changes none).
    static func state(after kind: GestureEventKind) -> GestureState? {
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
    mutating func fail(at time: EventTime, into reports: inout [GestureArena.Report]) {
        if reported {
            report(.failed, at: time, into: &reports)
        } else {
            state = .failed
        }
        deadline = nil
    }

    /// Cancels an active gesture, fails a possible one.
    mutating func cancel(at time: EventTime, into reports: inout [GestureArena.Report]) {
        if state.isActive {
            // Where the gesture had got to (translation, scale, rotation), not zeros: a client that applied the
            // drag live must know how far to undo it. Velocity stays zero: nothing cancelled may be flung.
            var cancelled = event(.cancelled, at: time)
            if let last = lastActive {
                cancelled.translation = last.translation
                cancelled.scale = last.scale
                cancelled.rotation = last.rotation
            }
            report(cancelled, into: &reports)
        } else {
            fail(at: time, into: &reports)
        }
        deadline = nil
    }

    /// What a `cancelled` report takes from the last `began` or `changed`.
    struct ActiveMeasures: Sendable {
        var translation: Point
        var scale: Double
        var rotation: Double

        @inline(__always)
        init(_ event: GestureEvent) {
            translation = event.translation
            scale = event.scale
            rotation = event.rotation
        }
    }

    /// A new sequence starts.
    mutating func reset() {
        state = .possible
        fingers.forgetSequence()
        deadline = nil
        reported = false
        lastActive = nil
    }
}
