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
    public private(set) var decoder: TouchDecoder
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

    public var liveFingerCount: Int { decoder.liveFingerCount }

    /// The decoder's counts, with the moves the filter suppressed.
    public var diagnostics: DecoderDiagnostics {
        var diagnostics = decoder.diagnostics
        diagnostics.movesSuppressedByFilter = stage.movesSuppressed
        return diagnostics
    }

    public init(decoder: TouchDecoder, mapping: CoordinateMapping, filter: JitterFilter = .off) {
        self.decoder = decoder
        stage = FilterStage(mapping: mapping, filter: FingerPositionFilter(filter: filter, device: decoder.description))
    }

    public mutating func process(_ event: InputEvent, into output: inout [PipelineOutput]) {
        swap(&stage.output, &output)
        decoder.process(event, into: &stage)
        swap(&stage.output, &output)
    }

    public mutating func resync(to snapshot: DeviceSnapshot, at time: EventTime, into output: inout [PipelineOutput]) {
        swap(&stage.output, &output)
        decoder.resync(to: snapshot, at: time, into: &stage)
        swap(&stage.output, &output)
    }

    public mutating func cancelAll(at time: EventTime, into output: inout [PipelineOutput]) {
        swap(&stage.output, &output)
        decoder.cancelAll(at: time, into: &stage)
        swap(&stage.output, &output)
    }

    /// Hands each decoder output kept since the last call (`keepsDecoded`) to `body`, in order, and forgets them.
    public mutating func takeDecoded(_ body: (DecoderOutput) -> Void) {
        for item in stage.kept { body(item) }
        stage.kept.removeAll(keepingCapacity: true)
    }
}

/// The pipeline after the decoder: each finger event through the jitter filter (a move it holds still is dropped)
/// and the mapping, appended to `output`, the caller's buffer lent for one step.
private struct FilterStage: DecoderOutputSink {
    var mapping: CoordinateMapping
    var filter: FingerPositionFilter
    /// The filter passes every position untouched: set once, since the filter's kind and margins never change.
    let passesUnfiltered: Bool
    var output: [PipelineOutput] = []
    var keepsDecoded = false
    var kept: [DecoderOutput] = []
    var movesSuppressed = 0
    /// A finger event went out since the last `frameEnd`: the frame is reported.
    var frameHasFingers = false

    init(mapping: CoordinateMapping, filter: FingerPositionFilter) {
        self.mapping = mapping
        self.filter = filter
        passesUnfiltered = filter.isOff
    }

    mutating func finger(_ event: FingerEvent) {
        if keepsDecoded { kept.append(.finger(event)) }
        if passesUnfiltered {
            output.append(.finger(MappedFingerEvent(event: event, position: mapping.map(event.contact))))
            return
        }
        guard let position = filter.position(for: event) else {
            movesSuppressed += 1
            return
        }
        let mapped = mapping.map(deviceX: position.x, deviceY: position.y)
        output.append(.finger(MappedFingerEvent(event: event, position: mapped)))
        frameHasFingers = true
    }

    mutating func frameEnd(_ time: EventTime) {
        if keepsDecoded { kept.append(.frameEnd(time)) }
        if passesUnfiltered {
            output.append(.frameEnd(time))
            return
        }
        if frameHasFingers { output.append(.frameEnd(time)) }
        frameHasFingers = false
    }
}
