import TouchCore
import TouchEngine

extension Daemon {
    /// On SIGHUP the configuration file is read again for its devices' `calibration` (what `touchctl calibrate`
    /// writes), and a device whose matching rules now give another matrix takes it at once; one that no rule
    /// calibrates any more goes back to what it had without one (its udev `LIBINPUT_CALIBRATION_MATRIX`, or the
    /// identity). Only the calibration:
    /// the other settings (rotation, grab, the filter, the socket) are set when the daemon or the device starts. A
    /// file that does not load changes nothing and is logged.
    func reloadCalibrations(reason: String) {
        guard let path = options.configPath else { return }
        let reloaded: Config
        do {
            reloaded = try ConfigLoader.load(path: path)
        } catch {
            logger.error("\(reason): calibrations not reloaded: \(error)")
            return
        }
        var handles = Array(sources.keys)
        if let replay { handles.append(replay.device) }
        for id in handles {
            guard let description = engine.decoder(of: id)?.description else { continue }
            let node = node(of: id)
            let matrix =
                Self.calibration(in: reloaded, for: description, node: node) ?? devices?.udevCalibrations[node]
                ?? .identity
            guard engine.setCalibration(matrix, of: id) else { continue }
            let values = matrix.values.map { "\($0)" }.joined(separator: " ")
            logger.notice("\(reason): \(engine.key(of: id) ?? "?") \"\(description.name)\": calibration \(values)")
        }
    }

    /// The calibration the rules give a device; nil when none sets one.
    static func calibration(in config: Config, for description: DeviceDescription, node: String) -> CalibrationMatrix? {
        config.rules(
            name: description.name, node: node, vendor: description.id.vendor, product: description.id.product
        ).calibration
    }

    private func node(of id: DeviceHandle) -> String {
        sources[id]?.node ?? options.replayPath ?? ""
    }
}
