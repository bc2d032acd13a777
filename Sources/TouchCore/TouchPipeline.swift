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
    public var mapping: CoordinateMapping
    public private(set) var filter: FingerPositionFilter
    private var decoded: [DecoderOutput] = []
    /// Keep the decoder's own output of each step (`takeDecoded`): a device with a virtual touchscreen forwards
    /// every move the kernel reported, also those the filter held back (the compositor filters on its own).
    public var keepsDecoded = false {
        didSet { if keepsDecoded { kept.reserveCapacity(32) } else { kept = [] } }
    }
    private var kept: [DecoderOutput] = []
    private var movesSuppressed = 0
    /// A finger event went out since the last `frameEnd`: the frame is reported.
    private var frameHasFingers = false

    public var liveFingerCount: Int { decoder.liveFingerCount }

    /// The decoder's counts, with the moves the filter suppressed.
    public var diagnostics: DecoderDiagnostics {
        var diagnostics = decoder.diagnostics
        diagnostics.movesSuppressedByFilter = movesSuppressed
        return diagnostics
    }

    public init(decoder: TouchDecoder, mapping: CoordinateMapping, filter: JitterFilter = .off) {
        self.decoder = decoder
        self.mapping = mapping
        self.filter = FingerPositionFilter(filter: filter, device: decoder.description)
        decoded.reserveCapacity(32)
    }

    public mutating func process(_ event: InputEvent, into output: inout [PipelineOutput]) {
        decoder.process(event, into: &decoded)
        drain(into: &output)
    }

    public mutating func resync(to snapshot: DeviceSnapshot, at time: EventTime, into output: inout [PipelineOutput]) {
        decoder.resync(to: snapshot, at: time, into: &decoded)
        drain(into: &output)
    }

    public mutating func cancelAll(at time: EventTime, into output: inout [PipelineOutput]) {
        decoder.cancelAll(at: time, into: &decoded)
        drain(into: &output)
    }

    /// Hands each decoder output kept since the last call (`keepsDecoded`) to `body`, in order, and forgets them.
    public mutating func takeDecoded(_ body: (DecoderOutput) -> Void) {
        for item in kept { body(item) }
        kept.removeAll(keepingCapacity: true)
    }

    private mutating func drain(into output: inout [PipelineOutput]) {
        guard !decoded.isEmpty else { return }
        if keepsDecoded { kept.append(contentsOf: decoded) }
        if !filter.isOff { return drainFiltered(into: &output) }
        for item in decoded {
            switch item {
            case .finger(let event):
                output.append(.finger(MappedFingerEvent(event: event, position: mapping.map(event.contact))))
            case .frameEnd(let time):
                output.append(.frameEnd(time))
            }
        }
        decoded.removeAll(keepingCapacity: true)
    }

    private mutating func drainFiltered(into output: inout [PipelineOutput]) {
        for item in decoded {
            switch item {
            case .finger(let event):
                guard let position = filter.position(for: event) else {
                    movesSuppressed += 1
                    continue
                }
                let mapped = mapping.map(deviceX: position.x, deviceY: position.y)
                output.append(.finger(MappedFingerEvent(event: event, position: mapped)))
                frameHasFingers = true
            case .frameEnd(let time):
                if frameHasFingers { output.append(.frameEnd(time)) }
                frameHasFingers = false
            }
        }
        decoded.removeAll(keepingCapacity: true)
    }
}
