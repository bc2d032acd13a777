import TouchCalibration
import TouchCore
import TouchFormats
import TouchPosix
import TouchRecordingFiles

/// `touchd calibrate RECORDING --targets 'x,y …' [--size WxH]`: the fit `touchctl calibrate` makes, from a recording
/// of one tap per target, in order.
public enum CalibrateCommand {
    public static let parser = ArgumentParser([
        .value("targets", "'X,Y X,Y …'", help: "where each tap was meant to be, in display units (at least 3)"),
        .value("size", "WxH", help: "the display's size in the targets' units (default: the device's own range)"),
        .value("limit", "FRACTION", help: "largest residual before a point counts as a mis-tap (default 0.05)"),
        .value("desc", "FILE", help: "device description for an event-only recording"),
        .value("name", "NAME", help: "the device name for --udev (default: the recording's)"),
        .flag("udev", help: "also print a udev rule that sets the matrix"),
    ])
    static let usage =
        "usage: touchd calibrate RECORDING --targets 'X,Y X,Y ...' [--size WxH] [--limit FRACTION] [--udev]\n\n"
        + "Fits the calibration matrix (libinput's LIBINPUT_CALIBRATION_MATRIX) that takes a recording's taps to\n"
        + "their targets, by least squares, and prints it with each point's residual.\n\n"

    static let exitStatuses = exitStatusHelp([
        (.usage, "a wrong command line"),
        (.dataError, "the recording is malformed, or its taps give no good fit (count, collinear, a mis-tap)"),
        (.noInput, "the recording cannot be read"),
    ])

    /// A fit that cannot be made from the recording and targets given.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    public static func run(_ arguments: [String], logger: Logger) -> Int32 {
        do {
            let parsed = try parser.parse(arguments)
            if parsed.has("help") {
                return printOutput(usage + parser.helpText + "\n" + exitStatuses, command: "calibrate", logger: logger)
            }
            guard let file = parsed.positionals.first, parsed.positionals.count == 1, let targetText = parsed["targets"]
            else {
                StderrLogHandler().write(usage + parser.helpText)
                return ExitStatus.usage.rawValue
            }
            let targets: [(x: Double, y: Double)]
            switch CalibrationTargets.parse(targetText) {
            case .success(let points): targets = points
            case .failure(let error):
                throw ArgumentError.invalidValue(option: "targets", value: error.word, expected: "x,y")
            }
            let size = try parsed.value("size", expected: "WxH, two positive numbers", parseSize)
            let limit =
                try parsed.value("limit", expected: "a fraction of the display, above 0") {
                    Double($0).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
                } ?? CalibrationFit.defaultResidualLimit
            let recording = try RecordingLoader.load(path: file, descriptionPath: parsed["desc"])
            let lines = try report(
                recording: recording, targets: targets, size: size, limit: limit,
                udevName: parsed.has("udev") ? (parsed["name"] ?? recording.description.name) : nil)
            let text = lines.map(ControlEscaping.escaped).joined(separator: "\n") + "\n"
            return printOutput(text, command: "calibrate", logger: logger)
        } catch let error as Failure {
            logger.error("calibrate: \(error)")
            return ExitStatus.dataError.rawValue
        } catch {
            logger.error("calibrate: \(error)")
            return CommandFailure.status(of: error, jsonFiles: .input).rawValue
        }
    }

    /// The printed lines: the matrix, then each point's residual (and the udev rule when `udevName` is given).
    static func report(
        recording: Recording, targets: [(x: Double, y: Double)], size: (width: Double, height: Double)?,
        limit: Double, udevName: String?
    ) throws -> [String] {
        guard let xAxis = recording.description.xAxis, let yAxis = recording.description.yAxis else {
            throw Failure(description: "the recording's device has no x and y axes")
        }
        let display =
            size
            ?? (
                Double(Int64(xAxis.maximum) - Int64(xAxis.minimum) + 1),
                Double(Int64(yAxis.maximum) - Int64(yAxis.minimum) + 1)
            )
        var decoder = TouchDecoder(description: recording.description)
        var outputs: [DecoderOutput] = []
        for event in recording.events { decoder.process(event, into: &outputs) }
        var collector = CalibrationTaps()
        for case .finger(let event) in outputs { collector.take(event) }
        let taps = collector.finish()
        guard targets.count >= 3 else {
            throw Failure(description: CalibrationError.tooFewTargets(targets.count).description)
        }
        guard taps.count == targets.count else {
            throw Failure(
                description: CalibrationError.tapCountMismatch(taps: taps.count, targets: targets.count).description)
        }
        let samples = zip(taps, targets).map { tap, target in
            CalibrationSample(
                touch: (CalibrationSample.normalized(tap.x, xAxis), CalibrationSample.normalized(tap.y, yAxis)),
                target: (target.x / display.width, target.y / display.height))
        }
        let fit: CalibrationFit
        do throws(CalibrationError) {
            fit = try CalibrationFit(samples)
            _ = try fit.checked(limit: limit)
        } catch {
            throw Failure(description: error.description)
        }
        var lines = [CalibrationText.property(fit.matrix)]
        lines += CalibrationText.residualLines(
            fit, targets: targets, xAxis: xAxis, yAxis: yAxis, displaySize: size)
        if let udevName { lines.append(CalibrationText.udevRule(fit.matrix, deviceName: udevName)) }
        return lines
    }

    static func parseSize(_ text: String) -> (width: Double, height: Double)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width > 0, height > 0,
            width.isFinite, height.isFinite
        else { return nil }
        return (width, height)
    }
}
