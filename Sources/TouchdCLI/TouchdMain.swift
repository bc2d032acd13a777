import TouchPosix
import TouchVersion

/// `touchd COMMAND ...`: hands each subcommand to its own type, as libinput's tool does.
public enum TouchdMain {
    static let commands: [(name: String, summary: String)] = [
        ("run", "the daemon: touchscreens (or --replay FILE) in, the socket protocol out"),
        ("replay", "print the finger stream of a recorded evdev log (through a scene with --scene)"),
        ("record", "record a touchscreen to an evemu file"),
        ("list-devices", "the input devices touchd sees, and whether it uses each"),
        ("describe", "summarise a recording: device, axes, touches"),
        ("calibrate", "fit a calibration matrix to a recording of taps at known targets"),
    ]

    public static func run(_ arguments: [String]) -> Int32 {
        let logger = Logger(threshold: .info, style: StderrLogHandler.preferredStyle, handler: StderrLogHandler())
        guard let command = arguments.first else {
            StderrLogHandler().write(usage)
            return ExitStatus.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "replay":
            return ReplayCommand.run(rest, logger: logger)
        case "run":
            return RunCommand.run(rest)
        case "describe":
            return DescribeCommand.run(rest, logger: logger)
        case "list-devices":
            return ListDevicesCommand.run(rest, logger: logger)
        case "record":
            return RecordCommand.run(rest, logger: logger)
        case "calibrate":
            return CalibrateCommand.run(rest, logger: logger)
        case "--version", "-V", "version":
            return printOutput(TouchdVersion.versionLine(program: "touchd") + "\n", command: "version", logger: logger)
        case "--help", "-h", "help":
            return printOutput(usage + "\n", command: "help", logger: logger)
        default:
            logger.error("unknown command '\(command)'")
            StderrLogHandler().write(usage)
            return ExitStatus.usage.rawValue
        }
    }

    static var usage: String {
        "usage: touchd COMMAND [options]\n\ncommands:\n"
            + commands.map { "  " + $0.name + String(repeating: " ", count: 14 - $0.name.count) + $0.summary }
            .joined(separator: "\n")
            + "\n\n'touchd COMMAND --help' shows a command's options and the exit statuses it uses (sysexits(3)):\n"
            + "  0 success, 64 usage, 65 bad input data, 66 an input that cannot be read, 69 no device,\n"
            + "  71 a system call failed, 73 an output that cannot be created, 74 an I/O error,\n"
            + "  78 a missing or bad configuration, 1 anything else.\n\n"
            + TouchdVersion.helpLine
    }
}

/// The `exit status:` part of a command's help.
func exitStatusHelp(_ meanings: [(ExitStatus, String)]) -> String {
    "\nexit status:\n" + ExitStatus.helpLines([(.success, "success")] + meanings + [(.failure, "any other failure")])
        + "\n"
}
