/// When a touch the panel never lifts (a faulty panel, a lost lift) is given up: cancelled for clients and on the
/// virtual touchscreen, its later events ignored until its tracking id ends (docs/configuration.md, "Stuck
/// touches").
///
/// Two rules, each with its own limit (nil: the rule is off):
/// - silent: the touch reported no change for `silentLimit` while the device went on reporting other touches: one
///   reported in the second half of that time, or reports after it (then the cancel comes with that report). A
///   finger held on a real panel still reports (position, pressure or size change by a unit now and then); a slot
///   the firmware forgot reports nothing while the fingers in use do. Two fingers held still together, or one held
///   after the other lifted, are not cancelled: the other touches' last reports came early in the silence.
/// - motionless: the touch stayed within the jitter radius (`jitterMillimetres`) of one point for
///   `motionlessLimit`, reporting or not (an object resting on the glass, a stuck contact).
///
/// Times are the events' own: a limit passes at the first event at or past it, or when the caller advances time to
/// it (`TouchDecoder.nextStuckDeadline`), so a replay gives the same cancels as the live device.
public struct StuckTouchPolicy: Equatable, Sendable {
    public var silentLimit: EventTime.Duration?
    public var motionlessLimit: EventTime.Duration?

    public init(silentLimit: EventTime.Duration? = nil, motionlessLimit: EventTime.Duration? = nil) {
        self.silentLimit = silentLimit
        self.motionlessLimit = motionlessLimit
    }

    /// Silent for 5 s while other touches report, about 2.5 times the longest such silence of a finger held down
    /// in the shared recordings (1.96 s, chromiumos-firmware_TouchMTB two_finger_long_hold); no motionless limit,
    /// since a finger held still on purpose (a long press that opens an admin menu, a held slider) is motionless.
    public static let standard = StuckTouchPolicy(silentLimit: .milliseconds(5_000))
    public static let off = StuckTouchPolicy()

    public var isOff: Bool { silentLimit == nil && motionlessLimit == nil }

    /// How far a touch may wander and still be motionless: 2 mm (a finger's tremor and a panel's noise stay below
    /// it; Android's touch slop is 8 dp, about 1.3 mm), on an axis that declares no resolution 1 % of its range.
    public static let jitterMillimetres = 2.0

    /// The jitter radius along an axis, in its device units (at least 1).
    public static func jitterUnits(of axis: AbsInfo?) -> Int64 {
        guard let axis else { return 1 }
        let units =
            axis.resolution > 0
            ? jitterMillimetres * Double(axis.resolution)
            : Double(Int64(axis.maximum) - Int64(axis.minimum)) / 100
        return max(1, Int64(units.rounded(.down)))
    }
}

/// Why a stuck touch was cancelled, with the finger it was.
public struct StuckTouchCancel: Equatable, Sendable {
    public enum Rule: String, Sendable {
        case silent, motionless
    }

    public var finger: FingerID
    public var slot: Int32
    public var rule: Rule
    /// How long the touch had been silent or motionless when it was cancelled.
    public var duration: EventTime.Duration
}

/// A device's live touches as the stuck-touch rules see them: fed every finger event the decoder hands on, it says
/// when the next limit passes and which touches it ends.
@usableFromInline
struct StuckTouchWatch {
    struct Touch {
        var finger: FingerID
        var slot: Int32
        var lastReport: EventTime
        var anchorX: Int32
        var anchorY: Int32
        var anchoredAt: EventTime
    }

    let policy: StuckTouchPolicy
    let jitterX: Int64
    let jitterY: Int64
    private(set) var touches: [Touch] = []
    /// The latest down, move or up of any touch of the device.
    private var latestReport: EventTime?
    /// `deadline()` since the last change; nil when it must be worked out again.
    private var cachedDeadline: EventTime??

    init(policy: StuckTouchPolicy, description: DeviceDescription) {
        self.policy = policy
        jitterX = StuckTouchPolicy.jitterUnits(of: description.xAxis)
        jitterY = StuckTouchPolicy.jitterUnits(of: description.yAxis)
        touches.reserveCapacity(16)
    }

    @usableFromInline
    mutating func note(_ event: FingerEvent) {
        cachedDeadline = nil
        switch event.phase {
        case .down:
            touches.append(
                Touch(
                    finger: event.finger, slot: event.slot, lastReport: event.time, anchorX: event.contact.x,
                    anchorY: event.contact.y, anchoredAt: event.time))
            latestReport = event.time
        case .move:
            latestReport = event.time
            guard let index = touches.firstIndex(where: { $0.finger == event.finger }) else { return }
            touches[index].lastReport = event.time
            // The anchor serves the motionless rule alone (off by default): without it no move is measured.
            if policy.motionlessLimit != nil, isMotion(from: touches[index], to: event.contact) {
                touches[index].anchorX = event.contact.x
                touches[index].anchorY = event.contact.y
                touches[index].anchoredAt = event.time
            }
        case .up, .cancel:
            if event.phase == .up { latestReport = event.time }
            touches.removeAll { $0.finger == event.finger }
        }
    }

    /// Outside the jitter ellipse around the anchor (each axis scaled by its own radius).
    private func isMotion(from touch: Touch, to contact: ContactState) -> Bool {
        let dx = Double(Int64(contact.x) - Int64(touch.anchorX)) / Double(jitterX)
        let dy = Double(Int64(contact.y) - Int64(touch.anchorY)) / Double(jitterY)
        return dx * dx + dy * dy > 1
    }

    /// When the touch passes a limit, and by which rule; nil while it passes none.
    private func limit(of touch: Touch) -> (time: EventTime, rule: StuckTouchCancel.Rule)? {
        var found: (time: EventTime, rule: StuckTouchCancel.Rule)?
        if let silent = policy.silentLimit, let latest = latestReport,
            latest >= touch.lastReport + EventTime.Duration(microseconds: silent.microseconds / 2)
        {
            found = (max(touch.lastReport + silent, latest), .silent)
        }
        if let motionless = policy.motionlessLimit {
            let time = touch.anchoredAt + motionless
            if found == nil || time < found!.time { found = (time, .motionless) }
        }
        return found
    }

    /// The earliest time a touch passes a limit.
    mutating func deadline() -> EventTime? {
        if let cachedDeadline { return cachedDeadline }
        var earliest: EventTime?
        for touch in touches { earliest = EventTime.earliest(earliest, limit(of: touch)?.time) }
        cachedDeadline = earliest
        return earliest
    }

    /// The touches past a limit at `time`, forgotten here (the caller cancels them), in the order of their slots.
    mutating func takeDue(at time: EventTime) -> [StuckTouchCancel] {
        var due: [StuckTouchCancel] = []
        for touch in touches {
            guard let (limit, rule) = limit(of: touch), limit <= time else { continue }
            let since = rule == .silent ? touch.lastReport : touch.anchoredAt
            due.append(StuckTouchCancel(finger: touch.finger, slot: touch.slot, rule: rule, duration: time - since))
        }
        guard !due.isEmpty else { return [] }
        touches.removeAll { touch in due.contains { $0.finger == touch.finger } }
        cachedDeadline = nil
        return due.sorted { $0.slot < $1.slot }
    }

    /// Every touch ended (the device's touches were all cancelled).
    mutating func reset() {
        touches.removeAll(keepingCapacity: true)
        cachedDeadline = nil
    }
}

/// The decoder's sink while the rules watch: every finger event noted on its way to `output`. Made by
/// `TouchDecoder.watchingStuckTouches` only, and used only inside it, while both pointers are valid.
/// Inlinable, as `StagedOutput`: the engine specializes the decoder for its sinks, and under a sink it cannot see
/// into, the filter stage would run generic (docs/performance.md, "The stuck-touch rules' cost").
@usableFromInline
struct StuckWatchingSink<Output: DecoderOutputSink>: DecoderOutputSink {
    @usableFromInline let output: UnsafeMutablePointer<Output>
    @usableFromInline let watch: UnsafeMutablePointer<StuckTouchWatch>

    @inlinable
    init(output: UnsafeMutablePointer<Output>, watch: UnsafeMutablePointer<StuckTouchWatch>) {
        self.output = output
        self.watch = watch
    }

    @inlinable @inline(__always)
    mutating func finger(_ event: FingerEvent) {
        watch.pointee.note(event)
        output.pointee.finger(event)
    }

    @inlinable @inline(__always)
    mutating func frameEnd(_ time: EventTime) { output.pointee.frameEnd(time) }
}
