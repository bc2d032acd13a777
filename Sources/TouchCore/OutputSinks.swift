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
