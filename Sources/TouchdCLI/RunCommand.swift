import FoundationEssentials
import TouchDaemon
import TouchPosix

/// `touchd run`: the daemon.
public enum RunCommand {
    public static let parser = ArgumentParser([
        .value("config", short: "c", "FILE", help: "configuration (default /etc/touchd/touchd.json if it exists)"),
        .value("socket", "PATH", help: "listen here instead of the configured socket path"),
        .value("scene", "FILE", help: "scene file instead of the configured one"),
        .value("replay", "FILE", help: "play a recording as a device, at recorded speed"),
        .value("desc", "FILE", help: "with --replay: device description (evemu) for an events-only recording"),
        .flag("loop", help: "with --replay: start again at the end"),
        .value("speed", "FACTOR", help: "with --replay: play this many times faster (default 1)"),
        .value("replay-waits", "N", help: "with --replay: start when N clients have subscribed"),
        .flag("devices", help: "with --replay: also open real touchscreens"),
        .value(
            "filter", "off|fuzz|one-euro", help: "with --replay: the replayed device's jitter filter (default fuzz)"),
        .value("filter-params", "LIST", help: "with --replay: the filter's parameters, as touchd replay takes them"),
        .value("log-level", "LEVEL", help: "err, warning, notice, info or debug"),
    ])

    public static let usage =
        "usage: touchd run [options]\n\nRuns the daemon: touchscreens (or --replay) in, the socket protocol out.\n\n"
    static let exitStatuses = exitStatusHelp([
        (.usage, "a wrong command line"),
        (.dataError, "the --replay recording is malformed"),
        (.noInput, "the --replay recording cannot be read"),
        (.osError, "a system call failed"),
        (.cannotCreate, "the socket cannot be put in place"),
        (.configuration, "the configuration or its scene is missing or wrong (touchd.service does not restart on it)"),
    ])
    public static let defaultConfigPath = "/etc/touchd/touchd.json"

    public static func run(_ arguments: [String]) -> Int32 {
        var logger = Logger(threshold: .info, style: StderrLogHandler.preferredStyle, handler: StderrLogHandler())
        do {
            let parsed = try parser.parse(arguments)
            if parsed.has("help") {
                return printOutput(usage + parser.helpText + "\n" + exitStatuses, command: "run", logger: logger)
            }
            if let extra = parsed.positionals.first { throw ArgumentError.unexpectedArgument(extra) }
            let configPath =
                parsed["config"]
                ?? (FileManager.default.fileExists(atPath: defaultConfigPath) ? defaultConfigPath : nil)
            let config = try configPath.map { path throws in try ConfigLoader.load(path: path) } ?? Config()
            let levelName = parsed["log-level"] ?? config.logLevel
            guard let level = LogLevel(name: levelName) else {
                throw ArgumentError.invalidValue(
                    option: "log-level", value: levelName, expected: "err, warning, notice, info or debug")
            }
            logger.threshold = level
            var options = Daemon.Options()
            options.socketPath = parsed["socket"]
            options.scenePath = parsed["scene"]
            options.configPath = configPath
            options.replayPath = parsed["replay"]
            options.replayDescriptionPath = parsed["desc"]
            if options.replayDescriptionPath != nil && options.replayPath == nil {
                throw ArgumentError.missingArgument("--replay (needed by --desc)")
            }
            options.replayLoop = parsed.has("loop")
            options.replayWaitsForSubscribers =
                try parsed.value("replay-waits", expected: "a number of clients") {
                    Int($0).flatMap { $0 > 0 ? $0 : nil }
                } ?? 0
            options.replaySpeed =
                try parsed.value("speed", expected: "a positive number") { Double($0).flatMap { $0 > 0 ? $0 : nil } }
                ?? 1
            if options.replayPath == nil, parsed["filter"] != nil || parsed["filter-params"] != nil {
                throw ArgumentError.missingArgument(
                    "--replay (needed by --filter; a real device's filter is in its rule)")
            }
            options.replayFilter = try ReplayCommand.filter(parsed)
            options.scanDevices = options.replayPath == nil || parsed.has("devices")
            let daemon = try Daemon(config: config, options: options, logger: logger)
            try daemon.run()
            return 0
        } catch let error as ArgumentError {
            logger.error("run: \(error)")
            StderrLogHandler().write(usage + parser.helpText)
            return ExitStatus.usage.rawValue
        } catch {
            logger.error("run: \(error)")
            return CommandFailure.status(of: error, jsonFiles: .configuration).rawValue
        }
    }
}
