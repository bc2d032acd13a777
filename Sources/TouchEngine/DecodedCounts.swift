import TouchCore

/// What the devices' pipelines decoded, counted by the engine for an `EngineOutput` that needs only the counts
/// (`touchd replay` with a scene, whose summary counts fingers but prints dispatched events), instead of calling
/// the output with every decoded output.
public struct DecodedCounts: Equatable, Sendable {
    /// Finger events by phase.
    public var downs = 0
    public var moves = 0
    public var ups = 0
    public var cancels = 0
    /// Frame ends: frames that changed at least one finger.
    public var frameEnds = 0
    /// The most fingers down after a step that handed on a finger event (the count `EngineEvent.decoded` carries).
    public var maxLiveFingers = 0

    public init() {}

    mutating func note(_ phase: TouchPhase) {
        switch phase {
        case .down: downs += 1
        case .move: moves += 1
        case .up: ups += 1
        case .cancel: cancels += 1
        }
    }

    mutating func note(_ output: PipelineOutput, liveFingers: Int) {
        switch output {
        case .finger(let mapped):
            note(mapped.event.phase)
            maxLiveFingers = max(maxLiveFingers, liveFingers)
        case .frameEnd: frameEnds += 1
        }
    }
}
