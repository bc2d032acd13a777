import TouchCalibration
import TouchClient
import TouchCore
import TouchPosix
import TouchView

/// The terminal while targets are shown: raw mode on the alternate screen, one `+` at a time, and the line that
/// says what to do or what went wrong.
final class CalibrationScreen {
    private var session: TerminalSession?

    init() {}

    func restore() { session?.restore() }

    /// Draws the targets in turn and takes the taps until the fit is made; throws on q or the daemon leaving.
    func collect(client: TouchClient, device: CalibrateCommand.Device, threshold: Double) throws -> (
        CalibrationFit, [CalibrationTargets.Drawn], (rows: Int, columns: Int)
    ) {
        let terminal = try TerminalSession()
        session = terminal
        let size = terminal.size
        let drawn = CalibrationTargets.drawn(columns: size.columns, rows: size.rows)
        var calibration = CalibrationSession(targets: drawn.map(\.target), threshold: threshold)
        var status = ""
        var result: Result<CalibrationFit, CalibrateCommand.Failure>?
        var fingers: [Int: (sumX: Double, sumY: Double, count: Double)] = [:]

        let draw = {
            let target = drawn[calibration.next]
            var text = "\u{1b}[2J\u{1b}[H"
            text += "Tap the + (target \(calibration.next + 1) of \(drawn.count)); q quits.  " + status
            text += "\u{1b}[\(target.cell.row + 1);\(target.cell.column + 1)H+"
            terminal.write(text)
        }
        let tapped = { (x: Double, y: Double) in
            let touch = (CalibrationSample.normalized(x, device.xAxis), CalibrationSample.normalized(y, device.yAxis))
            switch calibration.tap(touch) {
            case .accepted:
                status = ""
            case .rejected(.tooClose):
                status = "That tap was where the last one was; tap the new target."
            case .rejected(.collinear):
                status = "That tap is on the line of the first two; tap the target again."
            case .rejected(.offTarget(_, _, let distance)):
                status =
                    "Mis-tap: " + CalibrationText.fixed(distance * 100, 0)
                    + " % of the display from where the first taps put this target; tap it again."
            case .restarted:
                status = "Two mis-taps in a row: an earlier tap was probably off. Starting again."
            case .finished(let fit):
                result = .success(fit)
            }
        }

        let loop = try EventLoop()
        var keys = [UInt8](repeating: 0, count: 64)
        try loop.register(0, for: .readable) { _ in
            if case .bytes(let count)? = try? Posix.read(0, into: &keys, count: keys.count),
                !keys[..<count].contains(where: { [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4].contains($0) })
            {
                return
            }
            result = .failure(.quit)
            loop.stop()
        }
        try loop.register(client.fileDescriptor, for: .readable) { _ in
            guard let messages = try? client.receiveAvailable() else {
                result = .failure(.daemonGone)
                loop.stop()
                return
            }
            for case .touch(let touch) in messages {
                guard case .number(let x, _)? = touch.json["raw_x"], case .number(let y, _)? = touch.json["raw_y"]
                else {
                    continue
                }
                switch touch.phase {
                case "down": fingers[touch.finger] = (x, y, 1)
                case "move":
                    fingers[touch.finger]?.sumX += x
                    fingers[touch.finger]?.sumY += y
                    fingers[touch.finger]?.count += 1
                case "up":
                    if let finger = fingers.removeValue(forKey: touch.finger), result == nil {
                        tapped(finger.sumX / finger.count, finger.sumY / finger.count)
                        if result == nil { draw() }
                    }
                default: fingers[touch.finger] = nil
                }
            }
            if result != nil { loop.stop() }
        }
        draw()
        while result == nil { _ = try loop.runOnce(timeoutMilliseconds: -1) }
        switch result! {
        case .success(let fit): return (fit, drawn, size)
        case .failure(let failure): throw failure
        }
    }
}
