import TouchCore
import TouchFormats
import TouchJSON
import TouchProtocol

/// Runs a recording through the pipeline and writes the finger stream; shared by `touchd replay` and the tests.
/// Output is a pure function of the recording and the settings, so a file always replays to the same bytes.
public struct ReplayEngine {
    public enum OutputFormat: String, Sendable { case ndjson, text }

    public struct Settings: Sendable {
        public var mapping = CoordinateMapping.Settings()
        public var format: OutputFormat = .ndjson
        /// The `device` field of every line.
        public var deviceName = "replay"

        public init() {}
    }

    /// Waits until a frame's time comes, for realtime replay; nil replays as fast as possible.
    public typealias Pacer = (_ offsetFromStart: EventTime.Duration) -> Void

    public let recording: Recording
    public let settings: Settings

    public init(recording: Recording, settings: Settings) {
        self.recording = recording
        self.settings = settings
    }

    /// Replays everything; `write` receives output in chunks.
    public func run(pacer: Pacer? = nil, write: (_ bytes: [UInt8]) -> Void) throws(CoordinateMapping.Error)
        -> ReplaySummary
    {
        let mapping = try CoordinateMapping(device: recording.description, settings: settings.mapping)
        var pipeline = TouchPipeline(decoder: TouchDecoder(description: recording.description), mapping: mapping)
        var summary = ReplaySummary()
        var outputs: [PipelineOutput] = []
        outputs.reserveCapacity(32)
        var writer = JSONWriter(capacity: 64 * 1024)
        var text = ""
        let start = recording.events.first?.time ?? .zero
        for event in recording.events {
            summary.note(event)
            if let pacer, event.isSynReport { pacer(event.time - start) }
            pipeline.process(event, into: &outputs)
            guard !outputs.isEmpty else { continue }
            for output in outputs {
                summary.note(output, live: pipeline.decoder.liveFingerCount)
                switch (output, settings.format) {
                case (.finger(let mapped), .ndjson):
                    FingerEventEncoder.encode(mapped, device: settings.deviceName, into: &writer)
                case (.frameEnd(let time), .ndjson):
                    FingerEventEncoder.encodeFrame(time: time, device: settings.deviceName, into: &writer)
                case (.finger(let mapped), .text):
                    text += TextFormatter.line(for: mapped, device: settings.deviceName, start: start) + "\n"
                case (.frameEnd(let time), .text):
                    text += TextFormatter.frameLine(time: time, device: settings.deviceName, start: start) + "\n"
                }
            }
            outputs.removeAll(keepingCapacity: true)
            if settings.format == .ndjson {
                if writer.bytes.count > 60 * 1024 || pacer != nil {
                    write(writer.bytes)
                    writer.reset()
                }
            } else if text.utf8.count > 60 * 1024 || pacer != nil {
                write(Array(text.utf8))
                text = ""
            }
        }
        if !writer.bytes.isEmpty { write(writer.bytes) }
        if !text.isEmpty { write(Array(text.utf8)) }
        summary.diagnostics = pipeline.decoder.diagnostics
        return summary
    }
}
