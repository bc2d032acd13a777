/// Where a decoder puts a frame's finger changes as it finds them: an array that collects them (the public
/// `[DecoderOutput]` API), or the pipeline's filter and mapping, which take each one as it comes, so the per-event
/// path keeps no intermediate array of decoder outputs.
///
/// The calls arrive in the order an array would hold them: a frame's finger events, then its `frameEnd`.
public protocol DecoderOutputSink {
    mutating func finger(_ event: FingerEvent)
    mutating func frameEnd(_ time: EventTime)
}

extension Array: DecoderOutputSink where Element == DecoderOutput {
    public mutating func finger(_ event: FingerEvent) { append(.finger(event)) }
    public mutating func frameEnd(_ time: EventTime) { append(.frameEnd(time)) }
}

/// Where a pipeline puts its mapped finger events and frame ends as the decoder finds them: an array (the public
/// `[PipelineOutput]` API), or a consumer such as the engine's dispatcher, which then takes each one with no array
/// between them. The calls arrive in the order an array would hold them.
public protocol PipelineOutputSink {
    mutating func finger(_ mapped: MappedFingerEvent)
    mutating func frameEnd(_ time: EventTime)
}

extension Array: PipelineOutputSink where Element == PipelineOutput {
    public mutating func finger(_ mapped: MappedFingerEvent) { append(.finger(mapped)) }
    public mutating func frameEnd(_ time: EventTime) { append(.frameEnd(time)) }
}
