import TouchCore
import TouchGestures
import TouchJSON

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

    public internal(set) var index: SceneIndex
    public let options: Options
    var arena: GestureArena
    /// Arena indices of each node's recognizers.
    var recognizersByNode: [[Int]] = []
    /// For each node a finger has gone down on since the arena was made, the recognizers such a finger feeds
    /// (`recognizers(for:)` of its chain): they follow from the scene's tree, gestures and relations alone, which
    /// only a new arena changes, and working them out again at every down weighed every wait of the region.
    var recognizersOfTarget: [[Int]?] = []
    var fingers = FingerTable<FingerState>()
    /// Per node, the finger key that drags it.
    var dragDrivers: [Int: FingerKey] = [:]
    /// Per scroll container, the finger that scrolls it.
    var scrollDrivers: [Int: ScrollDrive] = [:]
    var tapHistory: [Int: TapRecord] = [:]
    var out: [DispatchEvent] = []
    /// The arena's reports for the finger events, before they become `.gesture` events; kept for its storage.
    var reports: [GestureArena.Report] = []
    /// The reports before this index are handled: the arena appends each finger event's after them.
    var reportsRead = 0
    /// `nextDeadline` since the last change; nil when it must be worked out again.
    var knownDeadline: EventTime??
    /// Set whenever a finger's down is withheld (`deliverAt`), cleared once a look finds none.
    var mayHaveWithheldFingers = false
    /// Fingers a taking gesture took since the engine last asked (`takeTakenFingers`).
    var newlyTaken: [FingerKey] = []
    /// Arena members of taking gestures that have taken their fingers: later fingers into them are taken too.
    var takingMembers: [Int] = []
    /// Members recognized during the event being handled, whose fingers are taken once it is (`applyDueTakes`).
    var takesDue: [Int] = []

    struct FingerState {
        let key: FingerKey
        var device: InternedString
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
        /// Taken by a gesture (`takeFingers`): the compositor gets none of it from then on.
        var taken = false
        var silent: Bool
    }

    public init(scene: Scene, options: Options = Options()) {
        self.options = options
        index = SceneIndex(scene: scene)
        arena = GestureArena()
        _ = makeArena()
        linkRelations()
    }

    /// Fingers currently down (and not cancelled).
    public var liveFingerCount: Int { fingers.values.reduce(0) { $0 + ($1.dead ? 0 : 1) } }

    /// Region id a live finger is captured by.
    public func region(ofFinger finger: FingerID, device: DeviceTag) -> String? {
        fingers[Self.key(device, finger)]?.target.map { index.nodes[$0].id }
    }

    /// The earliest time at which `advance(to:)` has work.
    /// The engine asks before every input event; only `handle`, `advance` and `replaceScene` change the answer, so it
    /// is worked out once after each of them that may have changed it (a finger event that left no timer and found
    /// none keeps the answer "none").
    public var nextDeadline: EventTime? {
        if let known = knownDeadline { return known }
        let deadline = currentDeadline
        knownDeadline = .some(deadline)
        return deadline
    }

    /// Worked out from the fingers and recognizers as they are now (the timer loop, which changes them, asks this).
    var currentDeadline: EventTime? {
        // A loop, not compactMap, so it allocates nothing; skipped while no finger can be waiting.
        var delayed: EventTime?
        if mayHaveWithheldFingers {
            for finger in fingers.values {
                if let due = finger.deliverAt { delayed = min(delayed ?? due, due) }
            }
            mayHaveWithheldFingers = delayed != nil
        }
        return EventTime.earliest(delayed, withArena { $0.nextDeadline })
    }

    /// Handles one pipeline output from `device`, after running every timer due before it, and appends what it
    /// dispatches to `events`. The caller owns the buffer, so the per-event path allocates nothing.
    public func handle(_ output: PipelineOutput, device: DeviceTag, into events: inout [DispatchEvent]) {
        switch output {
        case .finger(let mapped): handle(finger: mapped, device: device, into: &events)
        case .frameEnd(let time): handle(frameEnd: time, device: device, into: &events)
        }
    }

    /// `handle(.finger(mapped), device:into:)`, for a caller that has the finger event alone (the engine's pipeline
    /// sink): no `PipelineOutput` is made around it only to be taken apart again.
    public func handle(finger mapped: MappedFingerEvent, device: DeviceTag, into events: inout [DispatchEvent]) {
        writingOutput(into: &events) {
            // No call when the answer kept since the last change is "no timer" (the engine asked it before this
            // event; most events come so).
            if case .some(.none) = knownDeadline {} else { runTimers(upTo: mapped.event.time) }
            handleFinger(mapped, device: device)
        }
    }

    /// `handle(.frameEnd(time), device:into:)`.
    public func handle(frameEnd time: EventTime, device: DeviceTag, into events: inout [DispatchEvent]) {
        // A frame's end changes no finger and no recognizer: the deadline kept stays right.
        events.append(.frame(device: device.id, time: time))
    }

    public func handle(_ output: PipelineOutput, device: DeviceTag) -> [DispatchEvent] {
        var events: [DispatchEvent] = []
        handle(output, device: device, into: &events)
        return events
    }

    /// Runs timers (long press, tap windows, delayed touches) due at or before `time`, appending to `events`.
    public func advance(to time: EventTime, into events: inout [DispatchEvent]) {
        writingOutput(into: &events) { runTimers(upTo: time) }
        knownDeadline = nil
    }

    public func advance(to time: EventTime) -> [DispatchEvent] {
        var events: [DispatchEvent] = []
        advance(to: time, into: &events)
        return events
    }

    static func key(_ device: DeviceTag, _ finger: FingerID) -> FingerKey {
        FingerKey(device: device.index, finger: finger)
    }

    func takeOutput() -> [DispatchEvent] {
        defer { out.removeAll(keepingCapacity: true) }
        return out
    }

    /// Lends the caller's buffer to `out` for the duration of `body`: what the dispatcher appends lands after the
    /// caller's events without an intermediate array. The caller forgets the deadline kept, if `body` may change it.
    func writingOutput(into events: inout [DispatchEvent], _ body: () -> Void) {
        swap(&out, &events)
        body()
        applyDueTakes()
        swap(&out, &events)
    }
}
