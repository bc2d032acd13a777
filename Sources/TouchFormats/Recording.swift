import TouchCore

/// The file formats touchd reads.
public enum RecordingFormat: String, Sendable, CaseIterable {
    /// evemu-record text, versions 1.0 to 1.3 (also its event-only `.events` files).
    case evemu
    /// `libinput record` YAML, version 1.
    case libinputRecord = "libinput-record"
    /// Raw `struct input_event` records as `cat /dev/input/eventN` gives them (24 bytes each on 64-bit).
    case raw
    /// Android `getevent -lt` (or `-t`) text.
    case getevent
    /// `evtest` text.
    case evtest
}

/// Where a recording's device description came from.
public enum DescriptionSource: Equatable, Sendable {
    /// In the recording itself.
    case embedded
    /// From another file: a sibling (`.desc`, `.prop`, `.device`) or one given on the command line.
    case file(String)
    /// Guessed from the events: ranges from the values seen. Mapping to output units is then approximate.
    case inferred
}

/// A device description and the events it sent.
public struct Recording: Sendable {
    public var format: RecordingFormat
    public var description: DeviceDescription
    public var descriptionSource: DescriptionSource
    public var events: [InputEvent]
    /// The format version where the file names one (`1.3` for `# EVEMU 1.3`).
    public var version: String?
    /// Lines skipped with `ReadOptions.skipBadLines`, each with its reason.
    public var skipped: [RecordingError]
    /// Axes the events use that the description lacked; their ranges were inferred from the events.
    public var inferredAxes: [UInt16] = []

    public init(
        format: RecordingFormat, description: DeviceDescription, descriptionSource: DescriptionSource,
        events: [InputEvent], version: String? = nil, skipped: [RecordingError] = []
    ) {
        self.format = format
        self.description = description
        self.descriptionSource = descriptionSource
        self.events = events
        self.version = version
        self.skipped = skipped
    }
}

/// All a recording says but its events: what `touchd replay`'s summary reports, and all a streaming reader keeps
/// after its first pass.
public struct RecordingInfo: Equatable, Sendable {
    public var format: RecordingFormat
    public var description: DeviceDescription
    public var descriptionSource: DescriptionSource
    public var version: String?
    public var inferredAxes: [UInt16] = []
    /// Lines skipped with `ReadOptions.skipBadLines`: how many, and the first (a stream keeps no more).
    public var skippedCount = 0
    public var firstSkipped: RecordingError?

    public init(
        format: RecordingFormat, description: DeviceDescription, descriptionSource: DescriptionSource,
        version: String? = nil
    ) {
        self.format = format
        self.description = description
        self.descriptionSource = descriptionSource
        self.version = version
    }
}

extension Recording {
    public var info: RecordingInfo {
        var info = RecordingInfo(
            format: format, description: description, descriptionSource: descriptionSource, version: version)
        info.inferredAxes = inferredAxes
        info.skippedCount = skipped.count
        info.firstSkipped = skipped.first
        return info
    }
}

/// How strict reading is.
public struct ReadOptions: Sendable {
    /// Skip malformed lines (counting them in `Recording.skipped`) instead of failing on the first one.
    public var skipBadLines = false

    public init(skipBadLines: Bool = false) { self.skipBadLines = skipBadLines }
}

/// What a parser found before the description is settled: the description lines, if any, and the events.
struct ParsedRecording {
    var description: DeviceDescription?
    var events: [InputEvent]
    var version: String?
    var skipped: [RecordingError]
}
