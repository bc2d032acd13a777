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

/// Decoder plus coordinate mapping for one device: the single path both `touchd replay` and the daemon use
/// from raw events to positioned finger events.
public struct TouchPipeline {
    public private(set) var decoder: TouchDecoder
    public var mapping: CoordinateMapping
    private var decoded: [DecoderOutput] = []

    public var liveFingerCount: Int { decoder.liveFingerCount }

    public init(decoder: TouchDecoder, mapping: CoordinateMapping) {
        self.decoder = decoder
        self.mapping = mapping
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
}
