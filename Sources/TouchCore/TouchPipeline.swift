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

    private mutating func drain(into output: inout [PipelineOutput]) {
        guard !decoded.isEmpty else { return }
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
