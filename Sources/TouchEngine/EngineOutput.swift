import TouchCore
import TouchScene

/// What a driver sees of the engine's work, beside the bytes its clients get: `touchd replay` renders its output
/// from this, tests watch the engine through it (`EngineObserver`). The daemon sets none. Set as `Engine.output`.
public protocol EngineOutput: AnyObject {
    /// Whether it takes each decoded finger (`decoded`). Off, the engine only counts them (`Engine.decodedCounts`),
    /// unless it has no dispatcher: then the decoded fingers are all an output can get.
    var takesDecoded: Bool { get }
    /// A device's decoded finger event or frame end, after the step (the input event) that produced it, with the
    /// fingers down as that step left them; before the dispatched events of the same call.
    func decoded(_ output: PipelineOutput, device: DeviceTag, liveFingers: Int)
    /// A turn's dispatched events, `events[start...]` in order, in the engine's buffer (read them by position: each
    /// copied out is 197 bytes), before they are encoded for clients. The events before `start` are earlier turns'.
    func dispatched(_ events: [DispatchEvent], from start: Int)
}

/// What an `EngineObserver` sees, in order.
public enum EngineEvent {
    case decoded(PipelineOutput, device: DeviceTag, liveFingers: Int)
    case dispatched(DispatchEvent)
}

/// An `EngineOutput` that hands each decoded output and dispatched event to a closure, one at a time (tests).
public final class EngineObserver: EngineOutput {
    public let takesDecoded: Bool
    private let body: (EngineEvent) -> Void

    public init(takesDecoded: Bool = true, _ body: @escaping (EngineEvent) -> Void) {
        self.takesDecoded = takesDecoded
        self.body = body
    }

    public func decoded(_ output: PipelineOutput, device: DeviceTag, liveFingers: Int) {
        body(.decoded(output, device: device, liveFingers: liveFingers))
    }

    public func dispatched(_ events: [DispatchEvent], from start: Int) {
        for event in events[start...] { body(.dispatched(event)) }
    }
}
