import FoundationEssentials
import TouchCore
import TouchFormats
import TouchPosix
import TouchRecordingFiles
import TouchScene
import TouchWire

/// `touchd replay FILE`: prints the finger stream of a recording.
public enum ReplayCommand {
    public static let parser = ArgumentParser([
        .value("desc", "FILE", help: "device description (evemu) for an events-only recording"),
        .value("input-format", "NAME", help: "evemu, libinput-record, raw, getevent or evtest (default: detect)"),
        .value("size", "WxH", help: "output size in output units (default: the device's range)"),
        .value("rotate", "DEGREES", help: "clockwise rotation: 0, 90, 180 or 270"),
        .flag("invert-x", help: "mirror x"),
        .flag("invert-y", help: "mirror y"),
        .value("calibration", "'a b c d e f'", help: "libinput-style calibration matrix"),
        .value(
            "map-to", "X,Y,W,H",
            help: "map the device onto this rectangle of the output, after rotation and calibration (sway's "
                + "map_to_region; a device rule's mapTo)"),
        .value("format", "ndjson|text", help: "output format (default ndjson)"),
        .value("speed", "realtime|max", help: "replay pace (default max)"),
        .flag("skip-bad-lines", help: "skip malformed lines with a warning count instead of failing"),
        .value("scene", "FILE", help: "dispatch to the regions and gestures of this scene (docs/scene.md)"),
        .value("svg", "FILE", help: "with --scene: draw the scene and every finger's path into FILE"),
        .value(
            "html", "FILE", help: "with --scene: a self-contained page into FILE that plays the replay over the scene"),
        .flag("drop-unassigned", help: "with --scene: report nothing for fingers that hit no region"),
        .value(
            "filter", "off|fuzz|one-euro",
            help: "jitter filter on finger positions (default fuzz: what libinput does to the panel, without "
                + "lag where libinput has none; docs/decoding.md)"),
        .value(
            "filter-params", "LIST",
            help: "the filter's parameters as name=number,...: fuzz takes fuzz (device units, as if both axes "
                + "declared it; default each axis's own, or range/250 when none); one-euro takes minCutoff (Hz, default 1), beta (Hz per device unit/s, default "
                + "0.2), dCutoff (Hz, default 5)"),
        .flag("quiet", short: "q", help: "no summary on stderr"),
    ])

    public static let usage =
        "usage: touchd replay FILE [options]\n\nPrints the finger stream of a recorded evdev log (FILE - reads standard input).\n\n"
    static let exitStatuses = exitStatusHelp([
        (.usage, "a wrong command line"),
        (.dataError, "the recording, its --desc or the --scene is malformed"),
        (.noInput, "one of them cannot be opened"),
        (.cannotCreate, "the --svg or --html file cannot be created"),
        (.ioError, "reading an input or writing an output failed midway"),
    ])

    public static func run(_ arguments: [String], logger: Logger) -> Int32 {
        do {
            let parsed = try parser.parse(arguments)
            if parsed.has("help") {
                return printOutput(usage + parser.helpText + "\n" + exitStatuses, command: "replay", logger: logger)
            }
            guard parsed.positionals.count == 1 else {
                throw parsed.positionals.isEmpty
                    ? ArgumentError.missingArgument("FILE") : ArgumentError.unexpectedArgument(parsed.positionals[1])
            }
            let file = parsed.positionals[0]
            var settings = try replaySettings(parsed)
            let inputFormat = try parsed.value(
                "input-format", expected: "evemu, libinput-record, raw, getevent or evtest"
            ) {
                RecordingFormat(rawValue: $0)
            }
            // Read as a stream: a first pass checks the file and settles its description (a large evemu file's two
            // halves at once), the replay reads it again, and no more than a buffer and a few batches of events are
            // held (RecordingStream).
            let recording = try RecordingStream(
                path: file, format: inputFormat, descriptionPath: parsed["desc"],
                options: ReadOptions(skipBadLines: parsed.has("skip-bad-lines")))
            if let scenePath = parsed["scene"] {
                let scene = try SceneLoader.parse(try readSceneFile(scenePath), file: scenePath)
                settings.scene = scene
                settings.dispatch.dropUnassigned = parsed.has("drop-unassigned")
                settings.collectDispatched = parsed["svg"] != nil || parsed["html"] != nil
                // Without --size, the scene's size is the output size: the scene is the screen.
                if settings.mapping.outputSize == nil { settings.mapping.outputSize = (scene.width, scene.height) }
            } else if parsed["svg"] != nil || parsed["html"] != nil {
                throw ArgumentError.missingArgument("--scene (needed by --\(parsed["svg"] != nil ? "svg" : "html"))")
            }
            let realtime = try parsed.choice("speed", ["realtime", "max"], default: "max") == "realtime"
            var pacer: ReplayDriver.Pacer?
            if realtime {
                let realtimePacer = RealtimePacer()
                pacer = { offset in realtimePacer.wait(offset) }
            }
            // The driver hands over 60 KiB at a time (each chunk at once when paced in real time): written as
            // they come, with no second buffer. The first failure (a full disk) ends the writing, and the replay
            // fails with it once the engine is done.
            // With a second processor, the recording is parsed on a thread of its own while the engine runs here.
            var outputFailure: SystemError?
            let summary = try ReplayDriver.run(
                stream: recording, settings: settings, pacer: pacer, readingAhead: Posix.usableProcessorCount > 1
            ) { bytes in
                guard outputFailure == nil else { return }
                do throws(SystemError) {
                    try Posix.writeAll(1, bytes)
                } catch {
                    outputFailure = error
                }
            }
            if let outputFailure {
                logger.error("replay: standard output: \(outputFailure)")
                return ExitStatus.ioError.rawValue
            }
            if let svgPath = parsed["svg"], let scene = settings.scene {
                try write(
                    SVGRenderer.render(scene: scene, events: summary.dispatched), to: svgPath, what: "the SVG file")
            }
            if let htmlPath = parsed["html"], let scene = settings.scene {
                let html = HTMLRenderer.render(
                    scene: scene, events: summary.dispatched, start: summary.firstTime ?? .zero)
                try write(html, to: htmlPath, what: "the HTML file")
            }
            if !parsed.has("quiet") {
                let name = RecordingLoader.displayName(for: file)
                for line in summary.report(file: name, info: recording.info) {
                    StderrLogHandler().write(ControlEscaping.escaped(line))
                }
            }
            return 0
        } catch let error as ArgumentError {
            logger.error("replay: \(error)")
            StderrLogHandler().write(usage + parser.helpText)
            return ExitStatus.usage.rawValue
        } catch let error as RecordingError where error.kind == .changed {
            logger.error("replay: \(error)")
            return changedFileStatus
        } catch {
            logger.error("replay: \(error)")
            return CommandFailure.status(of: error, jsonFiles: .input).rawValue
        }
    }

    /// A file that changed between the two passes: EX_IOERR (sysexits), for the reading went wrong, not the data,
    /// which may be well formed in both states; once the file no longer changes, a replay succeeds.
    public static let changedFileStatus: Int32 = 74

    static func replaySettings(_ parsed: ParsedArguments) throws(ArgumentError) -> ReplayDriver.Settings {
        var settings = ReplayDriver.Settings()
        settings.format =
            try parsed.choice("format", ["ndjson", "text"], default: "ndjson") == "text" ? .text : .ndjson
        settings.mapping.outputSize = try parsed.value("size", expected: "WIDTHxHEIGHT, e.g. 1920x1080", parseSize)
        settings.mapping.rotation =
            try parsed.value("rotate", expected: "0, 90, 180 or 270") {
                Int($0).flatMap { [0, 90, 180, 270].contains($0) ? $0 : nil }
            } ?? 0
        settings.mapping.invertX = parsed.has("invert-x")
        settings.mapping.invertY = parsed.has("invert-y")
        settings.mapping.calibration =
            try parsed.value("calibration", expected: "six numbers 'a b c d e f'") {
                CalibrationMatrix(udevProperty: $0)
            } ?? .identity
        settings.mapping.region = try parsed.value("map-to", expected: "x,y,width,height, e.g. 1920,0,1920,1080") {
            text in
            let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            return numbers.allSatisfy { $0 != nil } ? MappingRegion(numbers.compactMap { $0 }) : nil
        }
        settings.filter = try filter(parsed)
        return settings
    }

    static func filter(_ parsed: ParsedArguments) throws(ArgumentError) -> JitterFilter {
        let name = try parsed.choice("filter", JitterFilter.names, default: JitterFilter.standard.name)
        do {
            let parameters = try JitterFilter.parseParameters(parsed["filter-params"] ?? "")
            return try JitterFilter.make(name: name, parameters: parameters)
        } catch {
            throw ArgumentError.invalidValue(
                option: "filter-params", value: parsed["filter-params"] ?? "",
                expected: "parameters of the \(name) filter (\(error))")
        }
    }

    static func parseSize(_ text: String) -> (width: Double, height: Double)? {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width > 0, height > 0
        else { return nil }
        return (width, height)
    }
}

/// An output file (`--svg`, `--html`, `record -o`) that could not be created or written.
struct FileError: Error, CustomStringConvertible {
    enum Stage { case create, write }
    var path: String
    var stage: Stage
    var message: String
    var description: String { "\(path): \(message)" }
}

/// Writes into `path` as a shell's `>` does: through a symlink to its target, into a device or FIFO
/// (`/dev/stdout`), and a full disk is an error. Not FileManager.createFile, which writes a temporary file and
/// renames it over the path: that replaces a symlink, or, for root, `/dev/stdout` itself, with a regular file, and
/// reports success on /dev/full.
func write(_ text: String, to path: String, what: String) throws(FileError) {
    let fd: Int32
    do {
        fd = try Posix.createFile(path)
    } catch {
        throw FileError(path: path, stage: .create, message: "cannot write \(what): \(error)")
    }
    defer { Posix.close(fd) }
    do {
        try Posix.writeAll(fd, Array(text.utf8))
    } catch {
        throw FileError(path: path, stage: .write, message: "cannot write \(what): \(error)")
    }
}

func readSceneFile(_ path: String) throws(FileReader.Failure) -> [UInt8] { try FileReader.read(path) }

/// Sleeps until a frame's recorded offset has passed on the monotonic clock.
struct RealtimePacer {
    private let start: Int64

    init() { start = MonotonicClock.nowMicroseconds() }

    func wait(_ offset: EventTime.Duration) {
        // Through EventTime, which saturates: a 9e12 s recording waits "forever", it does not trap.
        let now = MonotonicClock.nowMicroseconds()
        Posix.sleep(microseconds: (EventTime(microseconds: start) + offset - EventTime(microseconds: now)).microseconds)
    }
}
