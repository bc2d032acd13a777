import TouchCore
import TouchFormats
import TouchJSON
import TouchPosix
import TouchScene
import TouchWire

/// Runs a recording through the pipeline (and, with a scene, the dispatcher) and writes the stream; shared by
/// `touchd replay` and the tests. Output is a pure function of the recording and the settings, so a file always
/// replays to the same bytes.
public struct ReplayEngine {
    public enum OutputFormat: String, Sendable { case ndjson, text }

    public struct Settings: Sendable {
        public var mapping = CoordinateMapping.Settings()
        public var format: OutputFormat = .ndjson
        /// The `device` field of every line.
        public var deviceName = "replay"
        /// With a scene, events are dispatched to regions and gestures are recognized.
        public var scene: Scene?
        public var dispatch = Dispatcher.Options()
        /// Keep the dispatched events (for the SVG picture).
        public var collectDispatched = false

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
        let dispatcher = settings.scene.map { Dispatcher(scene: $0, options: settings.dispatch) }
        let device = DeviceTag(index: 0, name: settings.deviceName)
        var summary = ReplaySummary()
        var outputs: [PipelineOutput] = []
        outputs.reserveCapacity(32)
        var dispatched: [DispatchEvent] = []
        dispatched.reserveCapacity(32)
        var sink = OutputSink(format: settings.format, start: recording.events.first?.time ?? .zero)
        // Hands pipeline output on: to the dispatcher with a scene, else straight to the output.
        func forward(_ items: [PipelineOutput]) {
            for output in items {
                summary.note(output, live: pipeline.decoder.liveFingerCount)
                if let dispatcher {
                    dispatcher.handle(output, device: device, into: &dispatched)
                } else {
                    sink.add(output, device: settings.deviceName)
                }
            }
        }
        for event in recording.events {
            summary.note(event)
            if let pacer, event.isSynReport { pacer(event.time - sink.start) }
            if let dispatcher, dispatcher.nextDeadline.map({ $0 <= event.time }) == true {
                dispatcher.advance(to: event.time, into: &dispatched)
            }
            pipeline.process(event, into: &outputs)
            guard !outputs.isEmpty || !dispatched.isEmpty else { continue }
            forward(outputs)
            outputs.removeAll(keepingCapacity: true)
            sink.add(dispatched, summary: &summary, collect: settings.collectDispatched)
            dispatched.removeAll(keepingCapacity: true)
            if sink.pending > 60 * 1024 || pacer != nil { write(sink.take()) }
        }
        // End of stream: a finger still down never lifted in the recording. Its real end was not seen, so it
        // ends with cancel, never up (docs/protocol.md), at the latest time the stream reached.
        summary.endedAtEndOfStream = pipeline.decoder.liveFingerCount
        pipeline.cancelAll(at: pipeline.decoder.latestTime ?? .zero, into: &outputs)
        forward(outputs)
        sink.add(dispatched, summary: &summary, collect: settings.collectDispatched)
        dispatched.removeAll(keepingCapacity: true)
        if let dispatcher {
            // Timers still running when the recording ends (a tap waiting for a double tap) fire at their times;
            // up to the end of time, so a deadline that saturated there fires too.
            sink.add(dispatcher.advance(to: .max), summary: &summary, collect: settings.collectDispatched)
        }
        write(sink.take())
        summary.diagnostics = pipeline.decoder.diagnostics
        summary.dispatched = sink.collected
        return summary
    }

    /// Encodes into one buffer, in either format.
    struct OutputSink {
        let format: OutputFormat
        let start: EventTime
        var writer = JSONWriter(capacity: 64 * 1024)
        var text = ""
        var collected: [DispatchEvent] = []

        init(format: OutputFormat, start: EventTime) {
            self.format = format
            self.start = start
        }

        var pending: Int { format == .ndjson ? writer.count : text.utf8.count }

        mutating func take() -> [UInt8] {
            defer {
                writer.reset()
                text = ""
            }
            return format == .ndjson ? writer.bytes : Array(text.utf8)
        }

        mutating func add(_ output: PipelineOutput, device: String) {
            switch (output, format) {
            case (.finger(let mapped), .ndjson): FingerEventEncoder.encode(mapped, device: device, into: &writer)
            case (.frameEnd(let time), .ndjson):
                FingerEventEncoder.encodeFrame(time: time, device: device, into: &writer)
            case (.finger(let mapped), .text):
                text += TextFormatter.line(for: mapped, device: device, start: start) + "\n"
            case (.frameEnd(let time), .text):
                text += TextFormatter.frameLine(time: time, device: device, start: start) + "\n"
            }
        }

        mutating func add(_ events: [DispatchEvent], summary: inout ReplaySummary, collect: Bool) {
            for event in events {
                summary.note(event)
                if collect { collected.append(event) }
                switch format {
                case .ndjson: DispatchEventEncoder.encode(event, into: &writer)
                case .text: if let line = TextFormatter.line(for: event, start: start) { text += line + "\n" }
                }
            }
        }
    }
}
