import FoundationEssentials
import TouchCore
import TouchDaemon
import TouchDevice
import TouchFormats
import TouchPosix
import TouchRecordingFiles
import TouchVersion

/// `touchd list-devices`: every input device, whether touchd would use it and why.
public enum ListDevicesCommand {
    public static let parser = ArgumentParser([
        .value(
            "config", short: "c", "FILE",
            help: "configuration whose device rules apply (default /etc/touchd/touchd.json)")
    ])

    static let exitStatuses = exitStatusHelp([
        (.usage, "a wrong command line"),
        (.osError, "libudev cannot be used"),
        (.configuration, "the configuration is missing or wrong"),
    ])

    public static func run(_ arguments: [String], logger: Logger) -> Int32 {
        do {
            let parsed = try parser.parse(arguments)
            if parsed.has("help") {
                return printOutput(
                    "usage: touchd list-devices [--config FILE]\n\n" + parser.helpText + "\n" + exitStatuses,
                    command: "list-devices", logger: logger)
            }
            let config = try loadConfig(parsed["config"])
            let udev = try Udev()
            var out = "touchd \(TouchdVersion.description)\n"
            let devices = udev.inputDevices()
            if devices.isEmpty { out += "no input devices (is /dev/input there, and readable?)\n" }
            if !Udev.udevdRunning {
                out += "note: udevd is not running: touchscreens are recognised by their capabilities\n"
            }
            let (connectors, problems) = DRMConnectors.read()
            out += MonitorListing.describe(connectors, problems: problems, outputs: config.outputs)
            let stuckCancels = stuckCancelsFromDaemon(socketPath: config.socket.path)
            for info in devices {
                out += describe(info, config: config, connectors: connectors, stuckCancels: stuckCancels) + "\n"
            }
            return printOutput(out, command: "list-devices", logger: logger)
        } catch {
            logger.error("list-devices: \(error)")
            return CommandFailure.status(of: error, jsonFiles: .configuration).rawValue
        }
    }

    static func loadConfig(_ path: String?) throws -> Config {
        if let path { return try ConfigLoader.load(path: path) }
        if FileManager.default.fileExists(atPath: RunCommand.defaultConfigPath) {
            return try ConfigLoader.load(path: RunCommand.defaultConfigPath)
        }
        return Config()
    }

    static func describe(
        _ info: UdevInputDevice, config: Config, connectors: [DisplayConnector] = [], stuckCancels: [String: Int] = [:]
    ) -> String {
        let device: EvdevDevice
        do {
            device = try EvdevDevice(node: info.node)
        } catch {
            return "\(info.node)\n  cannot open: \(error)\n"
        }
        let description = device.description
        let rule = config.rules(
            name: description.name, node: info.node, vendor: description.id.vendor, product: description.id.product)
        let verdict = TouchscreenClassifier.classify(description, udevProperties: info.properties, pinned: rule.use)
        var text = "\(info.node)  \"\(ControlEscaping.escaped(description.name))\"\n"
        text += "  touchscreen: \(verdict.isTouchscreen ? "yes" : "no") (\(verdict.explanation))\n"
        let id = description.id
        text +=
            "  id: bus \(hex(id.bustype)) vendor \(hex(id.vendor)) product \(hex(id.product)) version \(hex(id.version))"
        text += description.isDirect ? ", INPUT_PROP_DIRECT\n" : "\n"
        guard description.xAxis != nil || verdict.isTouchscreen else { return text }
        text += "  protocol: \(description.touchProtocol.rawValue)"
        if description.touchProtocol == .slotted { text += ", \(description.slotCount) slots" }
        text += "\n"
        for (label, axis) in [("x", description.xAxis), ("y", description.yAxis)] {
            guard let axis else { continue }
            text += "  \(label): \(axis.minimum)...\(axis.maximum)"
            text +=
                axis.resolution > 0
                ? ", \(axis.resolution) units/mm (\((Int64(axis.maximum) - Int64(axis.minimum)) / Int64(axis.resolution)) mm)\n"
                : ", resolution unknown\n"
        }
        if let matrix = rule.calibration {
            text += "  calibration: \(matrix.values.map { String($0) }.joined(separator: " ")) (configuration)\n"
        } else if let udevMatrix = info.properties["LIBINPUT_CALIBRATION_MATRIX"] {
            text += "  calibration: \(udevMatrix) (udev LIBINPUT_CALIBRATION_MATRIX)\n"
        } else {
            text += "  calibration: none\n"
        }
        if let rotation = rule.rotation, rotation != 0 { text += "  rotation: \(rotation)° (configuration)\n" }
        if verdict.isTouchscreen {
            let assignment = OutputAssignment.resolve(
                rule.target, outputs: config.outputs, connectors: connectors, touchscreen: TouchscreenFacts(description)
            )
            text += "  mapping: \(ControlEscaping.escaped(assignment.explanation))\n"
        }
        text += palmSizeLine(rule.palmSize, description: description)
        if verdict.isTouchscreen { text += stuckTouchesLine(rule, cancelled: stuckCancels[info.node]) }
        return text
    }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// `touchd record [DEVICE] [-o FILE] [--duration SECONDS]`: evemu 1.3 from a live device until interrupted.
public enum RecordCommand {
    public static let parser = ArgumentParser([
        .value("output", short: "o", "FILE", help: "write here (default: standard output)"),
        .value("duration", "SECONDS", help: "stop after this long (default: until interrupted)"),
    ])
    static let usage =
        "usage: touchd record [DEVICE] [-o FILE] [--duration SECONDS]\n\nRecords a device as evemu 1.3; without DEVICE, asks which.\n\n"
    static let exitStatuses = exitStatusHelp([
        (.usage, "a wrong command line, or an answer that names no listed device"),
        (.noInput, "the device cannot be opened"),
        (.unavailable, "there is no input device to choose from"),
        (.osError, "a system call failed"),
        (.cannotCreate, "the output file cannot be created"),
    ])

    public static func run(_ arguments: [String], logger: Logger) -> Int32 {
        do {
            let parsed = try parser.parse(arguments)
            if parsed.has("help") {
                return printOutput(usage + parser.helpText + "\n" + exitStatuses, command: "record", logger: logger)
            }
            let duration = try parsed.value("duration", expected: "seconds") {
                Double($0).flatMap { $0 > 0 ? $0 : nil }
            }
            let node = try parsed.positionals.first ?? choose()
            let device: EvdevDevice
            do {
                device = try EvdevDevice(node: node)
            } catch {
                throw RecordError.cannotOpen(error)
            }
            let output: Int32
            if let path = parsed["output"] {
                do {
                    output = try Posix.createFile(path, mode: 0o644)
                } catch {
                    throw FileError(path: path, stage: .create, message: "cannot create the recording: \(error)")
                }
            } else {
                output = 1
            }
            defer { if output != 1 { Posix.close(output) } }
            let outputName = parsed["output"] ?? "standard output"
            do throws(SystemError) {
                try StandardStreams.output(EvemuWriter.writeDescription(device.description), to: output)
            } catch {
                throw FileError(path: outputName, stage: .write, message: "cannot write the recording: \(error)")
            }
            logger.notice("recording \(node) \"\(device.description.name)\"; Ctrl-C stops")
            let count = try record(device, to: output, named: outputName, duration: duration)
            logger.notice("recorded \(count) events")
            return 0
        } catch {
            logger.error("record: \(error)")
            return CommandFailure.status(of: error, jsonFiles: .input).rawValue
        }
    }

    /// Like evemu-record: list the devices and read a number from standard input.
    static func choose() throws -> String {
        let devices = try Udev().inputDevices().map { info in
            (node: info.node, name: (try? EvdevDevice(node: info.node))?.description.name ?? "(cannot open)")
        }
        StandardStreams.write(Array(try menu(devices).utf8), to: 2)
        return try node(answer: readLine(), devices: devices)
    }

    /// The list and the question, or `RecordError.noDevice` when there is nothing to choose: a prompt then would
    /// wait for an answer that can name nothing.
    static func menu(_ devices: [(node: String, name: String)]) throws(RecordError) -> String {
        let numbers = devices.compactMap { eventNumber($0.node) }
        guard let lowest = numbers.min(), let highest = numbers.max() else { throw RecordError.noDevice }
        var text = "Available devices:\n"
        for device in devices { text += device.node + ":\t" + ControlEscaping.escaped(device.name) + "\n" }
        return text + "Select the device event number [\(lowest)-\(highest)]: "
    }

    /// The node of the listed device whose event number `answer` is.
    static func node(answer: String?, devices: [(node: String, name: String)]) throws(RecordError) -> String {
        let fields = (answer ?? "").split(whereSeparator: \.isWhitespace)
        guard fields.count == 1, let number = Int(fields[0]),
            let device = devices.first(where: { eventNumber($0.node) == number })
        else {
            throw RecordError.noSuchChoice(answer ?? "")
        }
        return device.node
    }

    /// 3 for `/dev/input/event3`.
    static func eventNumber(_ node: String) -> Int? {
        let digits = node.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, node.dropLast(digits.count).hasSuffix("event") else { return nil }
        return Int(String(digits.reversed()))
    }

    /// Streams events as they come (nothing is lost if touchd is killed), times relative to the first event as
    /// evemu-record writes them (``EvemuWriter/TimeBase/relativeToFirstEvent``).
    /// A failed write (a full disk) ends the recording with a `FileError` naming `outputName`: what was written
    /// before it stays.
    static func record(_ device: EvdevDevice, to output: Int32, named outputName: String, duration: Double?) throws
        -> Int
    {
        let loop = try EventLoop()
        var lines = EvemuWriter.EventLines(timeBase: .relativeToFirstEvent)
        var text = ""
        var count = 0
        var events: [InputEvent] = []
        var writeFailure: SystemError?
        let stop = { loop.stop() }
        let signals = try SignalSource(loop: loop, signals: [Signal.interrupt, Signal.terminate]) { _ in stop() }
        var timer: LoopTimer?
        if let duration {
            timer = try LoopTimer(loop: loop) { stop() }
            timer?.arm(at: MonotonicClock.nowMicroseconds() + Int64(duration * 1_000_000))
        }
        try loop.register(device.fd, for: .readable) { _ in
            events.removeAll(keepingCapacity: true)
            do {
                _ = try device.read(into: &events)
            } catch {
                stop()
            }
            guard !events.isEmpty else { return }
            text.removeAll(keepingCapacity: true)
            lines.append(events, to: &text)
            do throws(SystemError) {
                try StandardStreams.output(text, to: output)
            } catch {
                writeFailure = error
                stop()
                return
            }
            count += events.count
        }
        try loop.run()
        if let writeFailure {
            throw FileError(
                path: outputName, stage: .write,
                message: "cannot write the recording after \(count) events: \(writeFailure)")
        }
        _ = signals
        _ = timer
        return count
    }
}

/// Why `touchd record` cannot record.
enum RecordError: Error, CustomStringConvertible {
    /// No input device under /dev/input, or none this user can see.
    case noDevice
    case noSuchChoice(String)
    case cannotOpen(SystemError)

    var description: String {
        switch self {
        case .noDevice:
            "no input device to record (is /dev/input there, and may this user read it?); name one as DEVICE"
        case .noSuchChoice(let answer): "'\(answer)' is not the event number of a listed device"
        case .cannotOpen(let error): "\(error)"
        }
    }

    var status: ExitStatus {
        switch self {
        case .noDevice: .unavailable
        case .noSuchChoice: .usage
        case .cannotOpen: .noInput
        }
    }
}

/// `touchd describe FILE`: what a recording holds.
public enum DescribeCommand {
    public static let parser = ArgumentParser([
        .value("desc", "FILE", help: "device description for an event-only recording")
    ])
    static let usage = "usage: touchd describe FILE [--desc FILE]\n\nSummarises a recording: device, axes, touches.\n\n"

    static let exitStatuses = exitStatusHelp([
        (.usage, "a wrong command line"),
        (.dataError, "the recording or its --desc is malformed"),
        (.noInput, "one of them cannot be read"),
    ])

    public static func run(_ arguments: [String], logger: Logger) -> Int32 {
        do {
            let parsed = try parser.parse(arguments)
            if parsed.has("help") {
                return printOutput(usage + parser.helpText + "\n" + exitStatuses, command: "describe", logger: logger)
            }
            guard let file = parsed.positionals.first, parsed.positionals.count == 1 else {
                StderrLogHandler().write(usage + parser.helpText)
                return ExitStatus.usage.rawValue
            }
            let descPath = parsed["desc"]
            let recording = try RecordingLoader.load(path: file, descriptionPath: descPath)
            let summary = try ReplayDriver(recording: recording, settings: ReplayDriver.Settings()).run { _ in }
            let lines = summary.report(file: file, recording: recording).map(ControlEscaping.escaped)
            return printOutput(lines.joined(separator: "\n") + "\n", command: "describe", logger: logger)
        } catch {
            logger.error("describe: \(error)")
            return CommandFailure.status(of: error, jsonFiles: .input).rawValue
        }
    }
}
