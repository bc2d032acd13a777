/// Counts of the odd things a stream did, so tools can report them ("quirks") and tests can assert them.
/// None of them is an error: each has a defined treatment, written beside its counter.
public struct DecoderDiagnostics: Equatable, Sendable {
    /// Axis updates for a slot with no open touch (a stream that starts mid-touch). Values are kept for the
    /// slot, but no finger is invented: the touch appears only when a tracking id opens it.
    public var orphanAxisUpdates = 0
    /// `ABS_MT_SLOT` values outside the device's slot range. Events for such a slot are ignored up to the next
    /// valid `ABS_MT_SLOT`.
    public var outOfRangeSlots = 0
    /// A slot got a new tracking id without -1 first: the old touch ends with `up`, the new one starts.
    public var trackingIDChangesWithoutLift = 0
    /// Tracking ids that began and ended inside one frame: dropped, as libinput does (no duration, no position
    /// history).
    public var zeroLengthTouches = 0
    /// Live touches whose tool turned into a palm: ended with `cancel`.
    public var palmCancels = 0
    /// Touches that began as a palm: never reported.
    public var palmsSuppressed = 0
    /// Of the palm cancels and suppressions, those by size (`TouchDecoder.Options.palmMajor`), not by tool.
    public var palmsBySize = 0
    /// Touches the panel never lifted, cancelled by the stuck-touch rules (`StuckTouchPolicy`): ignored until
    /// their tracking id ends.
    public var stuckCancels = 0
    /// `SYN_DROPPED` events seen.
    public var syncDrops = 0
    /// Drops resolved from a state snapshot (`resync(to:at:)`).
    public var snapshotResyncs = 0
    /// Drops resolved without a snapshot (a recording): every live touch was cancelled.
    public var blindResyncs = 0
    /// Events discarded between `SYN_DROPPED` and the next `SYN_REPORT`.
    public var eventsDiscardedInDrop = 0
    /// `SYN_MT_REPORT` on a slotted device, or slot events on a protocol A device: ignored.
    public var protocolMismatches = 0
    /// Events stamped earlier than an event before them (clock steps, merged logs, edited files): each is
    /// treated as stamped at the latest time seen, so time never goes back for gestures.
    public var backwardTimes = 0
    /// Moves whose position the jitter filter kept where it was (`TouchPipeline`): not reported.
    public var movesSuppressedByFilter = 0

    public init() {}

    /// Names and counts of the counters that are not zero, for summaries.
    public var nonZero: [(name: String, count: Int)] {
        let all: [(String, Int)] = [
            ("axis updates with no open touch (hover or mid-touch start)", orphanAxisUpdates),
            ("out-of-range slots", outOfRangeSlots),
            ("tracking id changes without lift", trackingIDChangesWithoutLift),
            ("zero-length touches dropped", zeroLengthTouches),
            ("palm cancels", palmCancels),
            ("palms suppressed", palmsSuppressed),
            ("palms by size", palmsBySize),
            ("stuck touches cancelled", stuckCancels),
            ("SYN_DROPPED", syncDrops),
            ("snapshot resyncs", snapshotResyncs),
            ("blind resyncs", blindResyncs),
            ("events discarded in drops", eventsDiscardedInDrop),
            ("protocol mismatches", protocolMismatches),
            ("times that went backwards (clamped)", backwardTimes),
            ("moves suppressed by the jitter filter", movesSuppressedByFilter),
        ]
        return all.filter { $0.1 != 0 }.map { (name: $0.0, count: $0.1) }
    }
}
