import TouchCore
import TouchFormats

/// Decodes a whole recording and tallies what the decoder reported.
public struct DecodedRecording {
    public var outputs: [DecoderOutput] = []
    public var fingers = 0
    public var maxSimultaneous = 0
    public var diagnostics = DecoderDiagnostics()
    public var liveAtEnd = 0

    public init(_ recording: Recording) {
        var decoder = TouchDecoder(description: recording.description)
        for event in recording.events {
            let before = outputs.count
            decoder.process(event, into: &outputs)
            if outputs.count != before {
                maxSimultaneous = max(maxSimultaneous, decoder.liveFingerCount)
            }
        }
        fingers = outputs.reduce(0) { count, output in
            if case .finger(let event) = output, event.phase == .down { return count + 1 }
            return count
        }
        diagnostics = decoder.diagnostics
        liveAtEnd = decoder.liveFingerCount
    }

    public var fingerEvents: [FingerEvent] {
        outputs.compactMap { if case .finger(let event) = $0 { event } else { nil } }
    }
}
