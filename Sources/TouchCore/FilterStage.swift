/// The pipeline after the decoder: each finger event through the jitter filter (a move it holds still is dropped)
/// and the mapping, handed on to the pipeline's output.
///
/// Inlinable, with `StagedOutput`: a sink from another module (the engine's dispatcher) is then specialized into
/// the stage and the decoder's flush. Without it the flush reached the stage through the generic witness, and the
/// stage the sink through another, for every finger event.
@usableFromInline
struct FilterStage {
    @usableFromInline var mapping: CoordinateMapping
    @usableFromInline var filter: FingerPositionFilter
    /// The filter passes every position untouched: set once, since the filter's kind and margins never change.
    @usableFromInline let passesUnfiltered: Bool
    @usableFromInline var keepsDecoded = false
    @usableFromInline var kept: [DecoderOutput] = []
    @usableFromInline var movesSuppressed = 0
    /// A finger event went out since the last `frameEnd`: the frame is reported.
    @usableFromInline var frameHasFingers = false

    init(mapping: CoordinateMapping, filter: FingerPositionFilter) {
        self.mapping = mapping
        self.filter = filter
        passesUnfiltered = filter.isOff
    }

    @inlinable
    mutating func finger(_ event: FingerEvent, into output: inout some PipelineOutputSink) {
        if keepsDecoded { kept.append(.finger(event)) }
        if passesUnfiltered {
            output.finger(MappedFingerEvent(event: event, position: mapping.map(event.contact)))
            return
        }
        guard let position = filter.position(for: event) else {
            movesSuppressed += 1
            return
        }
        let mapped = mapping.map(deviceX: position.x, deviceY: position.y)
        output.finger(MappedFingerEvent(event: event, position: mapped))
        frameHasFingers = true
    }

    @inlinable @inline(__always)
    mutating func frameEnd(_ time: EventTime, into output: inout some PipelineOutputSink) {
        if keepsDecoded { kept.append(.frameEnd(time)) }
        if passesUnfiltered {
            output.frameEnd(time)
            return
        }
        if frameHasFingers { output.frameEnd(time) }
        frameHasFingers = false
    }
}

/// The decoder's sink for one pipeline step: each output through the filter stage into the step's output. Made by
/// `TouchPipeline.run` only, and used only inside it, while both pointers are valid.
@usableFromInline
struct StagedOutput<Output: PipelineOutputSink>: DecoderOutputSink {
    @usableFromInline let stage: UnsafeMutablePointer<FilterStage>
    @usableFromInline let output: UnsafeMutablePointer<Output>

    @inlinable
    init(stage: UnsafeMutablePointer<FilterStage>, output: UnsafeMutablePointer<Output>) {
        self.stage = stage
        self.output = output
    }

    // Always inlined: called through the pointers, the optimizer left the stage's frame end and the mapping as calls.
    @inlinable @inline(__always)
    mutating func finger(_ event: FingerEvent) { stage.pointee.finger(event, into: &output.pointee) }
    @inlinable @inline(__always)
    mutating func frameEnd(_ time: EventTime) { stage.pointee.frameEnd(time, into: &output.pointee) }
}
