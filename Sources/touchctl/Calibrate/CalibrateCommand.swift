import Foundation
import TouchCalibration
import TouchClient
import TouchCore
import TouchJSON
import TouchPosix

/// `touchctl calibrate`: targets drawn in the terminal that fills the panel, the daemon's raw positions of the taps,
/// the fit, and the rule written on confirmation.
///
/// The terminal's cell grid is the only geometry this knows: the targets are cells, and each is taken to sit at
/// its cell's centre on a grid that covers the display evenly (`CalibrationTargets.Drawn`). One thread: an event
/// loop over the keyboard (q, Ctrl-C or Ctrl-D quit), signals and the socket (`CalibrationScreen`).
///
/// The taps' raw positions are the kernel's, before any matrix, so the fit is the whole transform whatever the
/// device's old calibration; what is written is the part of it before the device's rotation and inversion
/// (`CalibrationPlacement`), which touchd applies after the calibration.
enum CalibrateCommand {
    struct Options {
        var device: String?
        var config = "/etc/touchd/touchd.json"
        var udev = false
        var assumeYes = false
        var threshold = CalibrationFit.defaultResidualLimit
    }

    enum Failure: Error, CustomStringConvertible {
        case notATerminal
        case noDevice(String)
        case refused(String)
        case quit
        case signal(Int32)
        case noSize
        case terminalGone
        case daemonGone
        case config(String)

        var description: String {
            switch self {
            case .notATerminal: "calibrate needs a terminal on standard input and output (the panel's)"
            case .noDevice(let why): why
            case .refused(let why): "touchd refused the subscription: \(why)"
            case .quit: "calibration abandoned"
            case .signal(let number): "calibration abandoned (signal \(number))"
            case .noSize: "the terminal does not say its size in cells, so the targets cannot be placed"
            case .terminalGone: "the terminal went away"
            case .daemonGone: "touchd closed the connection"
            case .config(let why): why
            }
        }

        var exitStatus: Int32 {
            switch self {
            case .notATerminal, .noSize: ExitStatus.usage
            case .noDevice, .daemonGone, .refused: ExitStatus.unavailable
            case .quit, .terminalGone: 1
            case .signal(let number): 128 + number
            case .config: ExitStatus.ioError
            }
        }
    }

    /// The device being calibrated, from the `devices` reply.
    struct Device {
        var key: String
        var name: String
        var xAxis: AbsInfo
        var yAxis: AbsInfo
        /// What touchd does after the calibration (the device's `rotate`, `invertX`, `invertY`).
        var placement: CalibrationPlacement
    }

    static func run(client: TouchClient, options: Options) throws -> Int32 {
        guard Posix.isTerminal(0), Posix.isTerminal(1) else { throw Failure.notATerminal }
        let device = try chooseDevice(client, options.device)
        let reply = try client.subscribe(events: ["touch"], devices: [device.key], fields: ["raw_x", "raw_y"])
        guard reply.ok else { throw Failure.refused(reply.errorMessage ?? "") }
        let collected = try CalibrationScreen.collect(client: client, device: device, threshold: options.threshold)
        // No more touch lines: the prompt may wait long, and touchd would count the unread ones as a slow client.
        _ = try client.request(op: "unsubscribe")
        let matrix = device.placement.calibration(forWhole: collected.fit.matrix)
        report(collected, matrix: matrix, device: device)
        if options.udev {
            out("")
            out("udev rule (for /etc/udev/rules.d/99-touchd-calibration.rules):")
            out(printable(CalibrationText.udevRule(matrix, deviceName: device.name)))
            return 0
        }
        guard options.assumeYes || confirm("Write this calibration to \(printable(options.config))? [y/N] ") else {
            out("Nothing written.")
            return 0
        }
        try writeRule(matrix, device: device, config: options.config)
        let reload = try client.request(op: "reload")
        guard reload.ok else {
            out(
                "Written to \(printable(options.config)), but touchd refused to reload ("
                    + printable(reload.errorMessage ?? "") + "): run systemctl reload touchd.")
            return ExitStatus.noPermission
        }
        out("Written to \(printable(options.config)); touchd reloaded it and uses the new matrix.")
        return 0
    }

    static func chooseDevice(_ client: TouchClient, _ wanted: String?) throws -> Device {
        let reply = try client.request(op: "devices")
        guard reply.ok, case .array(let items, _)? = reply.json["devices"] else {
            throw Failure.noDevice("touchd did not list its devices: \(printable(reply.errorMessage ?? ""))")
        }
        let devices = items.compactMap(device(from:))
        if let wanted {
            guard let found = devices.first(where: { $0.key == wanted || $0.name == wanted }) else {
                throw Failure.noDevice(
                    "touchd reads no device '\(printable(wanted))' (it reads: "
                        + devices.map { printable($0.key) }.joined(separator: ", ") + ")")
            }
            return found
        }
        guard devices.count == 1 else {
            throw Failure.noDevice(
                devices.isEmpty
                    ? "touchd reads no touchscreen with position axes"
                    : "touchd reads \(devices.count) touchscreens; say which with --device ("
                        + devices.map { printable($0.key) }.joined(separator: ", ") + ")")
        }
        return devices[0]
    }

    static func device(from json: JSONValue) -> Device? {
        guard case .string(let key, _)? = json["device"], case .string(let name, _)? = json["name"],
            let x = axis(json["x"]), let y = axis(json["y"]), let placement = devicePlacement(json)
        else { return nil }
        return Device(key: key, name: name, xAxis: x, yAxis: y, placement: placement)
    }

    private static func axis(_ json: JSONValue?) -> AbsInfo? {
        guard case .number(let minimum, _)? = json?["min"], case .number(let maximum, _)? = json?["max"],
            case .number(let resolution, _)? = json?["resolution"], maximum > minimum,
            let low = Int32(exactly: minimum), let high = Int32(exactly: maximum),
            let units = Int32(exactly: resolution)
        else { return nil }
        return AbsInfo(minimum: low, maximum: high, resolution: units)
    }

    /// The device's rotation and inversion, absent when touchd does neither.
    private static func devicePlacement(_ json: JSONValue) -> CalibrationPlacement? {
        var rotation = 0
        if case .number(let degrees, _)? = json["rotate"] {
            guard let whole = Int(exactly: degrees) else { return nil }
            rotation = whole
        }
        let flag = { (key: String) -> Bool in
            if case .bool(let value, _)? = json[key] { return value }
            return false
        }
        return CalibrationPlacement(rotation: rotation, invertX: flag("invert_x"), invertY: flag("invert_y"))
    }

    static func report(_ collected: CalibrationScreen.Collected, matrix: CalibrationMatrix, device: Device) {
        let size = collected.size
        out(CalibrationText.property(matrix))
        if !device.placement.isIdentity {
            out(
                "(touchd turns the device by its rotate/invert after this matrix; the whole transform, as libinput "
                    + "alone would take it, is \(CalibrationText.property(collected.fit.matrix)))")
        }
        let targets = collected.drawn.map { ($0.target.x * Double(size.columns), $0.target.y * Double(size.rows)) }
        for line in CalibrationText.residualLines(
            collected.fit, targets: targets, xAxis: device.xAxis, yAxis: device.yAxis, displaySize: nil)
        {
            out(line.replacingOccurrences(of: " at ", with: " at cell "))
        }
        out(
            "The targets are character cells: the terminal's \(size.columns)×\(size.rows) grid is taken to cover the "
                + "display evenly, each target at its cell's centre. A border, padding or an unused strip around the "
                + "grid shifts the matrix by as much; a tap anywhere on the + is within half a cell ("
                + CalibrationText.fixed(50 / Double(size.columns), 1) + " % of the width, "
                + CalibrationText.fixed(50 / Double(size.rows), 1) + " % of the height) of its centre.")
    }

    static func confirm(_ question: String) -> Bool {
        StandardStreams.write(Array(question.utf8), to: 1)
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The rule edited into the configuration (a missing file is a new one); written beside it and renamed over it,
    /// so touchd never reads half a file.
    static func writeRule(_ matrix: CalibrationMatrix, device: Device, config: String) throws {
        let text: String
        if FileManager.default.fileExists(atPath: config) {
            do {
                text = try String(contentsOfFile: config, encoding: .utf8)
            } catch {
                throw Failure.config("cannot read \(printable(config)): \(error.localizedDescription)")
            }
        } else {
            text = "{}\n"
        }
        let edited: String
        do {
            edited = try CalibrationRuleEdit.apply(to: text, deviceName: device.name, matrix: matrix)
        } catch {
            throw Failure.config("\(printable(config)): \(error)")
        }
        do throws(Posix.ReplacementError) {
            try Posix.replaceFile(config, with: Array(edited.utf8))
        } catch {
            throw Failure.config("cannot write \(printable(config)): \(printable(error.description))")
        }
    }
}
