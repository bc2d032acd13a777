import TouchCore
import TouchEngine
import TouchFormats
import TouchJSON
import TouchPosix
import TouchRecordingFiles
import TouchScene
import TouchWire

/// Plays a recording through the engine the daemon runs (TouchEngine), as one device, and renders what it sees;
/// shared by `touchd replay` and the tests. Output is a pure function of the recording and the settings: the
/// engine's time is the recording's, so a file always replays to the same bytes.
public struct ReplayDriver {
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
        /// The jitter filter (`--filter`); libinput's hysteresis by default, as the daemon.
        public var filter = JitterFilter.standard

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

    /// Replays everything; `write` receives output in chunks (valid only during the call: the buffer is reused).
    public func run(
        pacer: Pacer? = nil, write: (_ bytes: UnsafeRawBufferPointer) -> Void
    ) throws(CoordinateMapping.Error) -> ReplaySummary {
        try Self.checkMapping(recording.description, settings)
        let events = recording.events
        return Self.play(
            description: recording.description, start: events.first?.time, settings: settings, pacer: pacer,
            write: write, events: WholeRecording(events: events))
    }

    /// Replays a stream: the events come a batch at a time, and only a batch (and a frame that runs across
    /// batches) is held. The output is byte for byte the same as for the same recording loaded whole.
    /// `readingAhead`: the stream is parsed on a thread of its own while the engine runs on this one.
    public static func run(
        stream: RecordingStream, settings: Settings, pacer: Pacer? = nil, readingAhead: Bool = false,
        write: (_ bytes: UnsafeRawBufferPointer) -> Void
    ) throws -> ReplaySummary {
        try checkMapping(stream.info.description, settings)
        return try play(
            description: stream.info.description, start: stream.firstEventTime, settings: settings, pacer: pacer,
            write: write, events: StreamedRecording(stream: stream, readsAhead: readingAhead))
    }

    /// The engine would only log a mapping that cannot be made; replay stops with it.
    private static func checkMapping(_ description: DeviceDescription, _ settings: Settings)
        throws(CoordinateMapping.Error)
    {
        _ = try CoordinateMapping(device: description, settings: settings.mapping)
    }

    /// Plays events through a fresh engine: `events` hands them over in batches, in order, cut anywhere;
    /// `start` is the first event's time.
    private static func play<Events: EventBatches>(
        description: DeviceDescription, start: EventTime?, settings: Settings, pacer: Pacer?,
        write: (_ bytes: UnsafeRawBufferPointer) -> Void, events: Events
    ) throws(Events.Failure) -> ReplaySummary {
        var engineSettings = Engine.Settings()
        engineSettings.dispatcher = settings.dispatch
        engineSettings.dispatches = settings.scene != nil
        let engine = Engine(scene: settings.scene ?? Scene(width: 1, height: 1, regions: []), settings: engineSettings)
        // What the engine hands on, in order: decoded fingers without a scene, dispatched events with one. Both
        // feed the summary; with a scene the decoded fingers are only counted, by the engine (`decodedCounts`).
        let output = ReplayOutput(
            sink: OutputSink(format: settings.format, start: start ?? .zero), rendersDispatched: settings.scene != nil,
            collects: settings.collectDispatched, deviceName: settings.deviceName)
        engine.output = output
        defer { engine.output = nil }
        var spec = DeviceSpec(
            key: .named(settings.deviceName), node: settings.deviceName, description: description,
            mapping: settings.mapping, mapsToScene: false, filter: settings.filter)
        // The daemon's default, so that a replay shows what touchd run does with the recording.
        spec.stuckTouches = .standard
        guard let device = engine.addDevice(spec, at: start ?? .zero) else {
            return output.summary
        }
        // Fed a frame at a time (up to its SYN_REPORT): the engine's batches, and the points where a realtime
        // replay waits. A frame cut by the end of a batch waits in `partial` for the rest.
        func feed(_ frame: ArraySlice<InputEvent>, complete: Bool) {
            if complete, let pacer, let last = frame.last { pacer(last.time - output.sink.start) }
            output.summary.note(frame)
            engine.process(frame, from: device)
            if output.sink.shouldTake(paced: pacer != nil) { output.sink.take(write) }
        }
        var partial: [InputEvent] = []
        try events.forEachBatch { batch in
            var frameStart = batch.startIndex
            while frameStart < batch.endIndex {
                // Paced, a frame at a time: the pacer waits before each. At full speed, every whole frame left in
                // the batch in one call: the engine dispatches event by event either way (timers at each event's
                // time), and a call a frame cost more than many a frame's work.
                let rest = batch[frameStart...]
                guard
                    let end = pacer == nil
                        ? rest.lastIndex(where: \.isSynReport) : rest.firstIndex(where: \.isSynReport)
                else {
                    partial.append(contentsOf: rest)
                    return
                }
                if partial.isEmpty {
                    feed(batch[frameStart...end], complete: true)
                } else {
                    partial.append(contentsOf: batch[frameStart...end])
                    feed(partial[...], complete: true)
                    partial.removeAll(keepingCapacity: true)
                }
                frameStart = end + 1
            }
        }
        if !partial.isEmpty { feed(partial[...], complete: false) }
        // End of stream: a finger still down never lifted in the recording. Its real end was not seen, so it
        // ends with cancel, never up (docs/protocol.md), at the latest time the stream reached.
        let decoder = engine.decoder(of: device)
        output.summary.endedAtEndOfStream = decoder?.liveFingerCount ?? 0
        engine.endOfStream(device, at: decoder?.latestTime ?? .zero)
        // Timers still running when the recording ends (a tap waiting for a double tap) fire at their times;
        // up to the end of time, so a deadline that saturated there fires too.
        engine.advance(to: .max)
        output.sink.take(write)
        var summary = output.summary
        summary.note(engine.decodedCounts)
        summary.diagnostics = engine.diagnostics(of: device) ?? DecoderDiagnostics()
        if let filter = engine.positionFilter(of: device) { summary.filter = ReplaySummary.describe(filter) }
        summary.dispatched = output.sink.collected
        return summary
    }

    /// The replay's output from the engine: the summary, and the lines rendered from the decoded fingers (without
    /// a scene) or the dispatched events (with one).
    final class ReplayOutput: EngineOutput {
        var summary = ReplaySummary()
        var sink: OutputSink
        let takesDecoded: Bool
        let collects: Bool
        let deviceName: String

        init(sink: OutputSink, rendersDispatched: Bool, collects: Bool, deviceName: String) {
            self.sink = sink
            takesDecoded = !rendersDispatched
            self.collects = collects
            self.deviceName = deviceName
        }

        func decoded(_ output: PipelineOutput, device: DeviceTag, liveFingers: Int) {
            summary.note(output, live: liveFingers)
            sink.add(output, device: deviceName)
        }

        func dispatched(_ events: [DispatchEvent], from start: Int) {
            sink.add(events, from: start, summary: &summary, collect: collects)
        }
    }

    /// A loaded recording's events, as one batch.
    private struct WholeRecording: EventBatches {
        let events: [InputEvent]

        func forEachBatch(_ body: (ArraySlice<InputEvent>) -> Void) { body(events[...]) }
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

        /// Whether to hand on what is pending after a frame: 60 KiB of it, or any when the replay is paced. Mutating
        /// only to reach the sink in place: reading `pending` of the sink the closures capture copied it whole (its
        /// buffers retained and released), twice a frame.
        mutating func shouldTake(paced: Bool) -> Bool { paced ? pending > 0 : pending > 60 * 1024 }

        /// Hands what is pending to `write` straight from the buffer, then empties it.
        mutating func take(_ write: (UnsafeRawBufferPointer) -> Void) {
            defer {
                writer.reset()
                text = ""
            }
            if format == .ndjson {
                writer.withUnsafeBytes(write)
            } else {
                var pendingText = text
                pendingText.withUTF8 { write(UnsafeRawBufferPointer($0)) }
            }
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

        /// By position: each event is read where the engine's array holds it, not copied out for a call.
        /// The events from `first` on (those before it are earlier turns').
        mutating func add(_ events: [DispatchEvent], from first: Int, summary: inout ReplaySummary, collect: Bool) {
            for position in first..<events.count {
                summary.note(events, at: position)
                if collect { collected.append(events[position]) }
                switch format {
                case .ndjson: DispatchEventEncoder.encode(events, at: position, selecting: .all, into: &writer)
                case .text:
                    if let line = TextFormatter.line(for: events[position], start: start) { text += line + "\n" }
                }
            }
        }
    }
}

/// Events handed over a batch at a time, in order: a recording's, loaded or streamed.
protocol EventBatches {
    associatedtype Failure: Error
    func forEachBatch(_ body: (ArraySlice<InputEvent>) -> Void) throws(Failure)
}

/// A streamed recording's events, read ahead or not.
private struct StreamedRecording: EventBatches {
    let stream: RecordingStream
    let readsAhead: Bool

    func forEachBatch(_ body: (ArraySlice<InputEvent>) -> Void) throws(RecordingError) {
        try stream.forEachBatch(readingAhead: readsAhead, body)
    }
}
