import FoundationEssentials
import TouchCore
import TouchFormats

/// Reads a recording file of any supported format and settles its device description: embedded in the file,
/// given by the caller, found in a sibling file (`.desc`, `.prop` or `.device` whose name the recording's
/// name starts with, as `n4.desc` for `n4.events` or `ntrig-xt2.device` for `ntrig-xt2-1-tap.event`), or
/// inferred from the events as a last resort.
public enum RecordingLoader {
    public static let descriptionExtensions = ["desc", "prop", "device"]

    public static func load(
        path: String, format: RecordingFormat? = nil, descriptionPath: String? = nil,
        options: ReadOptions = ReadOptions()
    ) throws(RecordingError) -> Recording {
        let bytes = try readFile(path)
        // Standard input (`-`) is named so in messages, and has no siblings.
        let path = displayName(for: path)
        guard let format = format ?? FormatDetection.detect(bytes) else { throw RecordingParser.unknownFormat(path) }
        var recording = try RecordingParser.parse(bytes, format: format, file: path, options: options)
        var statistics = EventStatistics()
        for event in recording.events { statistics.note(event) }
        var info = recording.info
        try settleDescription(&info, file: path, descriptionPath: descriptionPath, statistics: statistics)
        recording.description = info.description
        recording.descriptionSource = info.descriptionSource
        recording.inferredAxes = info.inferredAxes
        return recording
    }

    /// Settles the description of a recording read from `file` (its name in messages; "stdin" has no siblings):
    /// the one given (`descriptionPath`), else the file's own, else a sibling's, else one inferred from the
    /// events; then adds the axes the events use that it lacks. `statistics` noted every event.
    static func settleDescription(
        _ info: inout RecordingInfo, file path: String, descriptionPath: String?, statistics: EventStatistics
    ) throws(RecordingError) {
        if let descriptionPath {
            info.description = try loadDescription(descriptionPath)
            info.descriptionSource = .file(descriptionPath)
        } else if info.descriptionSource == .inferred {
            if let sibling = path == FileInput.standardInputName ? nil : siblingDescription(for: path) {
                info.description = try loadDescription(sibling)
                info.descriptionSource = .file(sibling)
            } else {
                let name =
                    "unknown device (inferred from " + (path.split(separator: "/").last.map(String.init) ?? path) + ")"
                info.description = DescriptionInference.infer(from: statistics, name: name)
            }
        }
        if info.descriptionSource != .inferred {
            info.inferredAxes = DescriptionInference.complete(&info.description, from: statistics)
        }
    }

    /// How messages and summaries name the recording at `path`: standard input (`-`) is "stdin".
    public static func displayName(for path: String) -> String {
        path == "-" ? FileInput.standardInputName : path
    }

    /// A description from an evemu file (`.desc`/`.prop`/`.device`, or any evemu recording with a header).
    public static func loadDescription(_ path: String) throws(RecordingError) -> DeviceDescription {
        try EvemuReader.description(in: try readFile(path), file: path)
    }

    /// The sibling description file for a recording, if one exists.
    public static func siblingDescription(for path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var best: (stem: String, file: String)?
        for entry in entries.sorted() where entry != name {
            let candidate = URL(fileURLWithPath: entry)
            guard descriptionExtensions.contains(candidate.pathExtension) else { continue }
            let stem = candidate.deletingPathExtension().lastPathComponent
            guard name.hasPrefix(stem) else { continue }
            let boundary = name.dropFirst(stem.count).first
            guard boundary == "." || boundary == "-" || boundary == "_" else { continue }
            if best == nil || stem.count > best!.stem.count { best = (stem, entry) }
        }
        return best.map { directory + "/" + $0.file }
    }

    static func readFile(_ path: String) throws(RecordingError) -> [UInt8] {
        try FileInput.read(path)
    }
}
