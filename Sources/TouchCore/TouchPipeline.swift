/// A finger event with its position in output units.
public struct MappedFingerEvent: Equatable, Sendable {
    public var event: FingerEvent
    public var position: Point

    public init(event: FingerEvent, position: Point) {
        self.event = event
        self.position = position
    }
}

/// What the pipeline hands on: mapped finger events, each frame closed by `frameEnd`.
public enum PipelineOutput: Equatable, Sendable {
    case finger(MappedFingerEvent)
    case frameEnd(EventTime)
}

/// Decoder, jitter filter and coordinate mapping for one device: the single path both `touchd replay` and the
/// daemon use from raw events to positioned finger events.
///
/// The filter sits between the decoder and the mapping: it changes only the mapped `position` (the event's
/// `contact` keeps the kernel's values, `raw_x`/`raw_y`), drops moves it kept still, and a frame left with no
/// finger event has no `frameEnd` either, as the decoder does for a frame with no change.
public struct TouchPipeline {
    /// The decoder, to read: the pipeline's own calls change it.
    public var decoder: TouchDecoder { _read { yield decoderState } }
    /// Internal, usable from inlined code: `takeAxis`, the usual input event's path, is inlined into the caller's loop.
    @usableFromInline var decoderState: TouchDecoder
    /// The filter and mapping, which take each decoder output as the decoder finds it: a stored property apart from
    /// the decoder, so the decoder can write into it while both are mutated (no array of decoder outputs between
    /// them).
    private var stage: FilterStage

    public var mapping: CoordinateMapping {
        get { stage.mapping }
        set { stage.mapping = newValue }
    }
    public var filter: FingerPositionFilter { stage.filter }

    /// Keep the decoder's own output of each step (`takeDecoded`): a device with a virtual touchscreen forwards
    /// every move the kernel reported, also those the filter held back (the compositor filters on its own).
    public var keepsDecoded: Bool {
        get { stage.keepsDecoded }
        set {
            stage.keepsDecoded = newValue
            if newValue { stage.kept.reserveCapacity(32) } else { stage.kept = [] }
        }
    }

    public var liveFingerCount: Int { decoderState.liveFingerCount }

    /// `liveFingerCount`, for a caller that keeps the pipeline in a class: a mutating call reaches the pipeline in
    /// place, where reading the property through the class copied the whole decoder first (its arrays retained and
    /// released), once a frame.
    public mutating func countLiveFingers() -> Int { decoderState.liveFingerCount }

    /// The decoder's counts, with the moves the filter suppressed.
    public var diagnostics: DecoderDiagnostics {
        var diagnostics = decoderState.diagnostics
        diagnostics.movesSuppressedByFilter = stage.movesSuppressed
        return diagnostics
    }

    public init(decoder: TouchDecoder, mapping: CoordinateMapping, filter: JitterFilter = .off) {
        self.decoderState = decoder
        stage = FilterStage(mapping: mapping, filter: FingerPositionFilter(filter: filter, device: decoder.description))
    }

    public mutating func process(_ event: InputEvent, into output: inout [PipelineOutput]) {
        Self.run(&decoderState, through: &stage, into: &output) { $0.process(event, into: &$1) }
    }

    public mutating func resync(
        to snapshot: DeviceSnapshot, at time: EventTime, into output: inout [PipelineOutput]
    ) {
        Self.run(&decoderState, through: &stage, into: &output) { $0.resync(to: snapshot, at: time, into: &$1) }
    }

    public mutating func cancelAll(at time: EventTime, into output: inout [PipelineOutput]) {
        Self.run(&decoderState, through: &stage, into: &output) { $0.cancelAll(at: time, into: &$1) }
    }

    /// The earliest time a live touch passes a stuck-touch limit (`TouchDecoder.stuckDeadline()`).
    public mutating func stuckDeadline() -> EventTime? { decoderState.stuckDeadline() }

    /// Cancels the touches past a stuck-touch limit at `time` (`TouchDecoder.cancelStuckTouches`).
    public mutating func cancelStuckTouches(
        at time: EventTime, into output: inout [PipelineOutput]
    ) -> [StuckTouchCancel] {
        var cancelled: [StuckTouchCancel] = []
        Self.run(&decoderState, through: &stage, into: &output) {
            cancelled = $0.cancelStuckTouches(at: time, into: &$1)
        }
        return cancelled
    }

    /// Takes an axis of a frame in progress into its slot, as `process` would (`TouchDecoder.takeAxis`): false for
    /// any other event, which `process` takes.
    @inlinable
    public mutating func takeAxis(_ event: InputEvent) -> Bool { decoderState.takeAxis(event) }

    /// Runs `event` through the pipeline into `sink`, each output as it is found, in the order `process(_:into:)`
    /// would append them. (The array's own overloads are specialized here; a sink from another module runs the
    /// generic code.)
    public mutating func process(_ event: InputEvent, handingTo sink: inout some PipelineOutputSink) {
        Self.run(&decoderState, through: &stage, into: &sink) { $0.process(event, into: &$1) }
    }

    /// Runs `body` on the decoder with the filter stage as its sink, the stage writing into `output`.
    private static func run<Output: PipelineOutputSink>(
        _ decoder: inout TouchDecoder, through stage: inout FilterStage, into output: inout Output,
        _ body: (inout TouchDecoder, inout StagedOutput<Output>) -> Void
    ) {
        // The pointers live only inside these closures, and the decoder, the stage and the output are three distinct
        // variables (the decoder and the stage separate stored properties of the pipeline): nothing but the staged
        // sink reaches the stage or the output while `body` runs.
        withUnsafeMutablePointer(to: &stage) { stage in
            withUnsafeMutablePointer(to: &output) { output in
                var staged = StagedOutput(stage: stage, output: output)
                body(&decoder, &staged)
            }
        }
    }

    /// Hands each decoder output kept since the last call (`keepsDecoded`) to `body`, in order, and forgets them.
    public mutating func takeDecoded(_ body: (DecoderOutput) -> Void) {
        for item in stage.kept { body(item) }
        stage.kept.removeAll(keepingCapacity: true)
    }
}
