import TouchActions
import TouchClient
import TouchPosix
import TouchVersion

/// touchd-actions: runs commands for gestures, from an actions file (docs/actions.md).
let usage = """
    usage: touchd-actions [--actions FILE] [--socket PATH] [--log-level LEVEL] [--check]

    Connects to touchd, adds the regions of the actions file to its scene (they go when touchd-actions stops or
    dies), and runs each rule's command when a gesture event matches it.

      --actions FILE     the actions file (default $XDG_CONFIG_HOME/touchd/actions.json, or
                         ~/.config/touchd/actions.json)
      --socket PATH      touchd's socket (default $TOUCHD_SOCKET, or /run/touchd/touchd.sock)
      --log-level LEVEL  err, warning, notice, info (default) or debug
      --check            validate the file, print what it holds, and exit

    \(ActionsExit.summary)
    """ + "\n\n" + TouchdVersion.helpLine

func fail(_ message: String, status: Int32) -> Never {
    StandardStreams.write(Array(("touchd-actions: " + message + "\n").utf8), to: 2)
    Posix.exit(status)
}

/// Writes `--help`, `--version` or `--check` output and exits with `status`, or with EX_IOERR when standard output
/// cannot take it.
func finish(output: String, status: Int32) -> Never {
    do throws(SystemError) {
        try StandardStreams.output(output)
    } catch {
        fail("standard output: \(error)", status: ActionsExit.ioError)
    }
    Posix.exit(status)
}

func defaultActionsPath() -> String {
    if let config = Posix.environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
        return config + "/touchd/actions.json"
    }
    return (Posix.environment("HOME") ?? "") + "/.config/touchd/actions.json"
}

var actionsPath = defaultActionsPath()
var socketPath = Posix.environment("TOUCHD_SOCKET") ?? TouchClient.defaultSocketPath
var level = LogLevel.info
var checkOnly = false
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String {
        guard let next = arguments.first, !next.hasPrefix("--") else {
            fail("\(argument) needs a value\n\n\(usage)", status: ActionsExit.usage)
        }
        return arguments.removeFirst()
    }
    switch argument {
    case "--actions": actionsPath = value()
    case "--socket": socketPath = value()
    case "--log-level":
        let name = value()
        guard let parsed = LogLevel(name: name) else {
            fail("unknown log level '\(LogText.printable(name))'", status: ActionsExit.usage)
        }
        level = parsed
    case "--check": checkOnly = true
    case let version where TouchdVersion.isRequest(version):
        finish(output: TouchdVersion.versionLine(program: "touchd-actions") + "\n", status: 0)
    case "-h", "--help":
        finish(output: usage + "\n", status: 0)
    default: fail("unknown argument '\(LogText.printable(argument))'\n\n\(usage)", status: ActionsExit.usage)
    }
}

let file: ActionsFile
do {
    let bytes = try FileReader.readRegularFile(actionsPath, limit: 1 << 20)
    file = try ActionsLoader.parse(bytes, file: actionsPath)
} catch let error as FileReader.Failure {
    fail("\(error.path): \(error.message)", status: ActionsExit.noInput)
} catch {
    fail("\(error)", status: ActionsExit.configuration)
}

if checkOnly {
    var lines = ["\(actionsPath): \(file.regions.count) region(s), \(file.rules.count) rule(s)"]
    for region in file.regions { lines.append("  region \(region.id)") }
    for rule in file.rules { lines.append("  \(rule.label): \(rule.command.arguments.joined(separator: " "))") }
    finish(output: lines.joined(separator: "\n") + "\n", status: ActionsExit.stopped)
}

let logger = Logger(
    threshold: level, style: StderrLogHandler.preferredStyle, handler: StderrLogHandler(), program: "touchd-actions")
do {
    let service = try ActionsService(file: file, settings: .init(socketPath: socketPath), logger: logger)
    Posix.exit(try service.run())
} catch {
    logger.error("\(error)")
    Posix.exit(ActionsExit.systemError)
}
