import TouchCore
import TouchEngine
import TouchFormats
import TouchPosix
import TouchScene

/// What a replay saw, for the summary on stderr and for `touchd describe`.
public struct ReplaySummary: Equatable, Sendable {
    public var events = 0
    /// `SYN_REPORT` frames in the input.
    public var frames = 0
    /// Frames that changed at least one finger.
    public var touchFrames = 0
    /// Distinct touches (finger ids) reported.
    public var fingers = 0
    public var maxSimultaneous = 0
    public var firstTime: EventTime?
    /// The latest time seen: an event stamped earlier than one before it does not move it back (the decoder
    /// clamps such times), so the duration is never negative.
    public var lastTime: EventTime?
    /// Fingers still down when the recording ended, ended with `cancel` (docs/protocol.md, end of stream).
    public var endedAtEndOfStream = 0
    public var diagnostics = DecoderDiagnostics()
    /// The jitter filter in force, with its margins ("fuzz, margins 15.5 x 15.5 device units").
    public var filter = ""
    /// Finger events by phase; phases never seen are absent.
    public var phaseCounts: [TouchPhase: Int] {
        var counts: [TouchPhase: Int] = [:]
        for phase in TouchPhase.allCases where phaseTally[phase] > 0 { counts[phase] = phaseTally[phase] }
        return counts
    }
    /// Counted in four fields, not the dictionary: a finger event then costs no hashing.
    private var phaseTally = PhaseTally()
    /// With a scene: downs per region id ("" for fingers that hit nothing).
    public var downsByRegion: [String: Int] = [:]
    /// With a scene: completed gestures ("region/name" → count of `ended`).
    public var gesturesEnded: [String: Int] = [:]
    /// With `Settings.collectDispatched`: every dispatched event.
    public var dispatched: [DispatchEvent] = []

    public init() {}

    /// Notes the event at `position`, switched on where the array holds it (see `DispatchEventEncoder`).
    mutating func note(_ events: [DispatchEvent], at position: Int) {
        switch events[position] {
        case .touch(let touch) where touch.phase == .down:
            downsByRegion[touch.region ?? "", default: 0] += 1
        case .gesture(let region, let gesture) where gesture.event == .ended:
            gesturesEnded[region.string + "/" + gesture.name, default: 0] += 1
        default:
            break
        }
    }

    /// Notes a frame's input events (or any run of them): one optional test for the run, not one per event.
    mutating func note(_ frame: ArraySlice<InputEvent>) {
        guard let first = frame.first else { return }
        events += frame.count
        if firstTime == nil { firstTime = first.time }
        var latest = lastTime ?? first.time
        for event in frame {
            if event.isSynReport { frames += 1 }
            if event.time > latest { latest = event.time }
        }
        lastTime = latest
    }

    mutating func note(_ output: PipelineOutput, live: Int) {
        switch output {
        case .finger(let mapped):
            phaseTally[mapped.event.phase] += 1
            if mapped.event.phase == .down { fingers += 1 }
            maxSimultaneous = max(maxSimultaneous, live)
        case .frameEnd:
            touchFrames += 1
        }
    }

    /// Notes what the engine counted for an `EngineOutput` that does not take each decoded output.
    mutating func note(_ counts: DecodedCounts) {
        phaseTally[.down] += counts.downs
        phaseTally[.move] += counts.moves
        phaseTally[.up] += counts.ups
        phaseTally[.cancel] += counts.cancels
        fingers += counts.downs
        touchFrames += counts.frameEnds
        maxSimultaneous = max(maxSimultaneous, counts.maxLiveFingers)
    }

    public var duration: EventTime.Duration {
        guard let firstTime, let lastTime else { return EventTime.Duration(microseconds: 0) }
        return Swift.max(lastTime - firstTime, .zero)
    }

    /// Lines for a person: input, description, counts, quirks.
    public func report(file: String, recording: Recording) -> [String] {
        report(file: file, info: recording.info)
    }

    /// The same for a recording read as a stream (or loaded whole): all but the events.
    public func report(file: String, info recording: RecordingInfo) -> [String] {
        var lines: [String] = []
        let version = recording.version.map { " " + $0 } ?? ""
        lines.append("\(file): \(recording.format.rawValue)\(version), device \"\(recording.description.name)\"")
        switch recording.descriptionSource {
        case .embedded: lines.append("  description: in the file")
        case .file(let path): lines.append("  description: from \(path)")
        case .inferred:
            lines.append("  description: none found; axis ranges inferred from the events (mapping is approximate)")
        }
        if !recording.inferredAxes.isEmpty {
            let names = recording.inferredAxes.map { EventNames.codeName(type: EventType.abs, code: $0) ?? String($0) }
            lines.append("  description lacks \(names.joined(separator: ", ")): range inferred from the events")
        }
        let device = recording.description
        var axes = "  protocol: \(device.touchProtocol.rawValue)"
        if device.touchProtocol == .slotted { axes += ", \(device.slotCount) slots" }
        if let x = device.xAxis, let y = device.yAxis {
            axes += ", x \(x.minimum)...\(x.maximum), y \(y.minimum)...\(y.maximum)"
            if x.resolution > 0 && y.resolution > 0 {
                axes += " (\(Self.millimetres(x)) x \(Self.millimetres(y)) mm)"
            }
        }
        lines.append(axes)
        let seconds = TextFormatterBridge.seconds(duration)
        lines.append(
            "  events: \(events), frames: \(frames), frames with touch changes: \(touchFrames), duration: \(seconds) s")
        lines.append("  fingers: \(fingers), max simultaneous: \(maxSimultaneous)")
        if endedAtEndOfStream > 0 {
            lines.append("  still down at the end of the stream: \(endedAtEndOfStream), ended with cancel")
        }
        let phases = TouchPhase.allCases.map { "\($0.rawValue) \(phaseCounts[$0] ?? 0)" }.joined(separator: ", ")
        lines.append("  finger events: \(phases)")
        if !filter.isEmpty { lines.append("  jitter filter: \(filter)") }
        if !downsByRegion.isEmpty {
            let regions = downsByRegion.sorted { $0.key < $1.key }.map {
                "\($0.key.isEmpty ? "(none)" : $0.key) \($0.value)"
            }
            lines.append("  downs by region: " + regions.joined(separator: ", "))
            let gestures = gesturesEnded.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            lines.append("  gestures: " + (gestures.isEmpty ? "none" : gestures.joined(separator: ", ")))
        }
        let quirks = diagnostics.nonZero
        lines.append(
            "  quirks: " + (quirks.isEmpty ? "none" : quirks.map { "\($0.name): \($0.count)" }.joined(separator: ", ")))
        if let first = recording.firstSkipped {
            lines.append("  skipped lines: \(recording.skippedCount) (first: \(first))")
        }
        return lines
    }

    /// The filter as the summary names it, with the hysteresis margins it took from the device.
    static func describe(_ filter: FingerPositionFilter) -> String {
        guard let hysteresis = filter.hysteresis else { return filter.filter.description }
        var text = filter.filter.description + ", "
        if let defuzz = filter.defuzz, defuzz.isActive {
            text += "mtdev's defuzz (fuzz \(defuzz.fuzzX) x \(defuzz.fuzzY))"
            if !hysteresis.isActive { return text }
            text += ", then "
        }
        guard hysteresis.isActive else { return text + "inactive (a margin is 0)" }
        text += "margins \(hysteresis.marginX) x \(hysteresis.marginY) device units"
        if hysteresis.release == .kernelPositionOnMotion { text += ", released on motion (no fuzz declared)" }
        return text
    }

    private static func millimetres(_ axis: AbsInfo) -> Int {
        Int((Int64(axis.maximum) - Int64(axis.minimum)) / Int64(axis.resolution))
    }
}

enum TextFormatterBridge {
    static func seconds(_ duration: EventTime.Duration) -> String {
        // On the magnitude, so that no duration can make a negative padding count.
        let millis = duration.microseconds / 1000
        let magnitude = millis.magnitude
        let fraction = String(magnitude % 1000)
        return (millis < 0 ? "-" : "") + String(magnitude / 1000) + "."
            + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

/// A count for each `TouchPhase`.
private struct PhaseTally: Equatable, Sendable {
    private var down = 0
    private var move = 0
    private var up = 0
    private var cancel = 0

    subscript(phase: TouchPhase) -> Int {
        get {
            switch phase {
            case .down: down
            case .move: move
            case .up: up
            case .cancel: cancel
            }
        }
        set {
            switch phase {
            case .down: down = newValue
            case .move: move = newValue
            case .up: up = newValue
            case .cancel: cancel = newValue
            }
        }
    }
}
