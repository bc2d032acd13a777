import TouchCalibration
import TouchClient
import TouchCore
import TouchPosix
import TouchView

/// The terminal while targets are shown: raw mode on the alternate screen with the cursor hidden, one `+` at a
/// time, and the lines that say what to do and what went wrong. The terminal is put back as it was however the
/// screen ends (the fit, q, Ctrl-C, Ctrl-D, SIGINT, SIGTERM, SIGHUP, touchd leaving).
enum CalibrationScreen {
    static let signals = [Signal.windowChanged, Signal.interrupt, Signal.terminate, Signal.hangup]

    /// What the screen found: the fit, the targets it was made on and the grid they were drawn in.
    struct Collected {
        var fit: CalibrationFit
        var drawn: [CalibrationTargets.Drawn]
        var size: (rows: Int, columns: Int)
    }

    /// Draws the targets in turn and takes the taps until the fit is made; throws on a quit key, a signal or the
    /// daemon leaving. A resized terminal moves the targets, so the taps start again on the new grid.
    static func collect(client: TouchClient, device: CalibrateCommand.Device, threshold: Double) throws -> Collected {
        let loop = try EventLoop()
        var result: Result<CalibrationFit, CalibrateCommand.Failure>?
        var resized = false
        // Blocked while the source lives: until the terminal is restored (the defers below run first), then let
        // through again for the prompt after.
        let signalSource = try SignalSource(loop: loop, signals: signals) { signal in
            if signal == Signal.windowChanged {
                resized = true
            } else {
                result = result ?? .failure(.signal(signal))
            }
            loop.stop()
        }
        defer { withExtendedLifetime(signalSource) {} }
        guard var size = Posix.terminalSize(1), size.rows > 0, size.columns > 0 else {
            throw CalibrateCommand.Failure.noSize
        }
        let terminal = try TerminalSession()
        defer { terminal.restore() }

        var drawn = CalibrationTargets.drawn(columns: size.columns, rows: size.rows)
        var calibration = CalibrationSession(targets: drawn.map(\.target), threshold: threshold)
        var status = ""
        var fingers: [Int: (sumX: Double, sumY: Double, count: Double)] = [:]

        let draw = {
            let target = drawn[calibration.next]
            var text = "\u{1b}[2J"
            let lines =
                ["Tap the + (target \(calibration.next + 1) of \(drawn.count)). q quits."]
                + wrapped(status, columns: size.columns)
            for (index, line) in lines.enumerated() where index < size.rows {
                text += "\u{1b}[\(index + 1);1H" + line
            }
            // Last, so that a long message on a small terminal never hides the target.
            text += "\u{1b}[\(target.cell.row + 1);\(target.cell.column + 1)H+"
            if !terminal.write(Array(text.utf8)) {
                result = result ?? .failure(.terminalGone)
                loop.stop()
            }
        }
        let tapped = { (x: Double, y: Double) in
            let touch = (CalibrationSample.normalized(x, device.xAxis), CalibrationSample.normalized(y, device.yAxis))
            switch calibration.tap(touch) {
            case .accepted: status = ""
            case .rejected(let rejection): status = message(rejection)
            case .restarted: status = "Two mis-taps in a row: an earlier tap was probably off. Starting again."
            case .finished(let fit): result = .success(fit)
            }
        }

        var keys = [UInt8](repeating: 0, count: 64)
        try loop.register(0, for: .readable) { _ in
            // q, Ctrl-C (raw mode delivers it as the byte 3, not SIGINT) and Ctrl-D (4); any other key is ignored.
            let read = try? Posix.read(0, into: &keys, count: keys.count)
            if case .wouldBlock? = read { return }
            guard case .bytes(let count)? = read, count > 0 else {
                result = result ?? .failure(.terminalGone)
                loop.stop()
                return
            }
            if keys[..<count].contains(where: { [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4].contains($0) }) {
                result = result ?? .failure(.quit)
                loop.stop()
            }
        }
        try loop.register(client.fileDescriptor, for: .readable) { _ in
            guard let messages = try? client.receiveAvailable() else {
                result = result ?? .failure(.daemonGone)
                loop.stop()
                return
            }
            for case .touch(let touch) in messages where result == nil {
                guard case .number(let x, _)? = touch.json["raw_x"], case .number(let y, _)? = touch.json["raw_y"]
                else { continue }
                switch touch.phase {
                case "down": fingers[touch.finger] = (x, y, 1)
                case "move":
                    fingers[touch.finger]?.sumX += x
                    fingers[touch.finger]?.sumY += y
                    fingers[touch.finger]?.count += 1
                case "up":
                    guard let finger = fingers.removeValue(forKey: touch.finger) else { continue }
                    tapped(finger.sumX / finger.count, finger.sumY / finger.count)
                    if result == nil { draw() }
                default: fingers[touch.finger] = nil
                }
            }
            if result != nil { loop.stop() }
        }
        draw()
        while result == nil {
            _ = try loop.runOnce(timeoutMilliseconds: -1)
            if resized, result == nil {
                resized = false
                guard let now = Posix.terminalSize(1), now.rows > 0, now.columns > 0 else { continue }
                if now != size {
                    size = now
                    drawn = CalibrationTargets.drawn(columns: size.columns, rows: size.rows)
                    calibration = CalibrationSession(targets: drawn.map(\.target), threshold: threshold)
                    status =
                        "The terminal is now \(size.columns)×\(size.rows) cells: the targets moved. Starting again."
                }
                draw()
            }
        }
        switch result! {
        case .success(let fit): return Collected(fit: fit, drawn: drawn, size: size)
        case .failure(let failure): throw failure
        }
    }

    static func message(_ rejection: CalibrationSession.Rejection) -> String {
        switch rejection {
        case .tooClose:
            "That tap was where an earlier one was: tap the + shown."
        case .collinear:
            "That tap is on the line of the first two: tap the + again."
        case .offTarget(_, _, let distance):
            "Mis-tap: " + CalibrationText.fixed(distance * 100, 0)
                + " % of the display from where the first taps put this target. Tap the + again."
        }
    }

    /// `text` in lines of at most `columns` characters, broken at spaces where it can be.
    static func wrapped(_ text: String, columns: Int) -> [String] {
        guard !text.isEmpty else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= columns {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
            while line.count > columns {
                lines.append(String(line.prefix(columns)))
                line = String(line.dropFirst(columns))
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
