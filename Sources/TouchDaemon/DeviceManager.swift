import TouchCore
import TouchDevice
import TouchPosix

/// Finds touchscreens (udev enumeration at start, a udev monitor afterwards), opens them with libevdev and tells
/// the daemon. Devices udev has not tagged are judged by their capabilities; the configuration can pin or
/// ignore any device by name, node or vendor/product.
final class DeviceManager {
    enum Change {
        /// `description` is the device's, with the axis fuzz libinput's udev rule moved out of the kernel put back.
        /// `virtual`: the device is grabbed and this virtual touchscreen takes the fingers no region claims.
        case opened(
            EvdevDevice, description: DeviceDescription, settings: CoordinateMapping.Settings, filter: JitterFilter,
            verdict: TouchscreenVerdict, virtual: UinputTouchscreen?)
        case removed(node: String)
        /// The device's monitor was chosen again (`"output": "auto"`, a monitor plugged in or out) and differs.
        case remapped(node: String, settings: CoordinateMapping.Settings)
    }

    let config: Config
    let logger: Logger
    private var udev: Udev?
    private var monitor: Udev.Monitor?
    private var monitorToken: UInt64?
    private var open: Set<String> = []
    /// The monitors as last read, and the devices whose place follows them (`"output": "auto"`).
    private var connectors: [DisplayConnector] = []
    private var followingDisplays: [String: (settings: CoordinateMapping.Settings, facts: TouchscreenFacts)] = [:]
    /// Each open device's `LIBINPUT_CALIBRATION_MATRIX`, by node: what it goes back to when a reload finds no
    /// `calibration` rule for it any more.
    private(set) var udevCalibrations: [String: CalibrationMatrix] = [:]
    /// Where the DRM connectors are read from (tests and the VM may point it elsewhere).
    var drmRoot = DRMConnectors.defaultRoot

    init(config: Config, logger: Logger) {
        self.config = config
        self.logger = logger
    }

    func start(loop: EventLoop, onChange: @escaping (Change) -> Void) throws {
        let udev = try Udev()
        self.udev = udev
        do {
            let monitor = try Udev.Monitor(udev: udev)
            self.monitor = monitor
            monitorToken = try loop.register(monitor.fd, for: .readable) { [unowned self] _ in
                for change in monitor.changes() {
                    switch change {
                    case .added(let device): consider(device, onChange: onChange)
                    case .removed(let node):
                        followingDisplays[node] = nil
                        udevCalibrations[node] = nil
                        if open.remove(node) != nil { onChange(.removed(node: node)) }
                    case .displaysChanged: displaysChanged(onChange: onChange)
                    }
                }
            }
        } catch {
            logger.warning("no hotplug: \(error); devices present at start are still used")
        }
        if !Udev.udevdRunning {
            logger.notice("udevd is not running: touchscreens are recognised by their capabilities")
        }
        readConnectors()
        for device in udev.inputDevices() { consider(device, onChange: onChange) }
    }

    func stop() {
        monitor = nil
        udev = nil
    }

    /// A removal noticed by a read error rather than by udev.
    func forget(_ node: String) {
        open.remove(node)
        followingDisplays[node] = nil
        udevCalibrations[node] = nil
    }

    private func readConnectors() {
        let (connectors, problems) = DRMConnectors.read(root: drmRoot)
        for problem in problems { logger.warning(problem) }
        self.connectors = connectors
    }

    /// A DRM hotplug: each device on `"output": "auto"` is placed again, and told when its place changed.
    private func displaysChanged(onChange: (Change) -> Void) {
        let before = connectors
        readConnectors()
        guard connectors != before else { return }
        let connected = connectors.filter(\.connected).map(\.name).joined(separator: ", ")
        logger.info("monitors changed; connected: \(connected.isEmpty ? "none" : connected)")
        for (node, device) in followingDisplays.sorted(by: { $0.key < $1.key }) {
            var settings = device.settings
            let assignment = assign(.automatic, facts: device.facts, node: node)
            guard assignment.region != settings.region else { continue }
            settings.region = assignment.region
            followingDisplays[node]?.settings = settings
            onChange(.remapped(node: node, settings: settings))
        }
    }

    private func assign(_ target: MappingTarget?, facts: TouchscreenFacts, node: String) -> OutputAssignment {
        let assignment = OutputAssignment.resolve(
            target, outputs: config.outputs, connectors: connectors, touchscreen: facts)
        if assignment.undecided {
            logger.warning("\(node): maps to \(assignment.explanation)")
        } else if target != nil {
            logger.notice("\(node): maps to \(assignment.explanation)")
        }
        return assignment
    }

    private func consider(_ info: UdevInputDevice, onChange: (Change) -> Void) {
        guard !open.contains(info.node) else { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(node: info.node)
        } catch {
            logger.debug("\(info.node): \(error)")
            return
        }
        let description = device.description
        let rule = config.rules(
            name: description.name, node: info.node, vendor: description.id.vendor, product: description.id.product)
        let verdict = TouchscreenClassifier.classify(description, udevProperties: info.properties, pinned: rule.use)
        guard verdict.isTouchscreen else {
            logger.debug("\(info.node) \"\(description.name)\": not a touchscreen (\(verdict.explanation))")
            return
        }
        let virtual = rule.forwardUnclaimed == true ? makeVirtualTouchscreen(for: device) : nil
        if virtual == nil, rule.grab ?? config.grab {
            do {
                try device.grab()
            } catch {
                logger.warning("\(info.node): cannot grab: \(error); reading it shared")
            }
        }
        var settings = CoordinateMapping.Settings()
        settings.rotation = rule.rotation ?? 0
        settings.invertX = rule.invertX ?? false
        settings.invertY = rule.invertY ?? false
        if let text = info.properties["LIBINPUT_CALIBRATION_MATRIX"] {
            if let matrix = CalibrationMatrix(udevProperty: text) {
                udevCalibrations[info.node] = matrix
            } else {
                logger.warning("\(info.node): LIBINPUT_CALIBRATION_MATRIX '\(text)' is not six numbers; ignored")
            }
        }
        settings.calibration = rule.calibration ?? udevCalibrations[info.node] ?? .identity
        let facts = TouchscreenFacts(description)
        settings.region = assign(rule.target, facts: facts, node: info.node).region
        if rule.target == .automatic { followingDisplays[info.node] = (settings, facts) }
        open.insert(info.node)
        let via = virtual.map { ", unclaimed fingers to \($0.node ?? "a virtual touchscreen")" } ?? ""
        logger.notice(
            "\(info.node) \"\(description.name)\": touchscreen (\(verdict.explanation))\(device.grabbed ? ", grabbed" : "")\(via)"
        )
        let filter = rule.filter ?? .standard
        if filter != .standard { logger.info("\(info.node): jitter filter \(filter)") }
        let restored = description.restoringFuzz(fromUdev: info.properties)
        onChange(
            .opened(
                device, description: restored, settings: settings, filter: filter, verdict: verdict,
                virtual: virtual))
    }

    /// The virtual touchscreen for `forwardUnclaimed`, made before the real device is grabbed so that touch never
    /// goes missing for the desktop: if either step fails the device is read shared, as without the option.
    private func makeVirtualTouchscreen(for device: EvdevDevice) -> UinputTouchscreen? {
        guard let description = VirtualTouchscreen.description(for: device.description) else {
            logger.warning("\(device.node): no position axes to give a virtual touchscreen; reading it shared")
            return nil
        }
        let virtual: UinputTouchscreen
        do {
            virtual = try UinputTouchscreen(description: description)
        } catch {
            logger.error("\(device.node): cannot create its virtual touchscreen: \(error); reading it shared")
            return nil
        }
        do {
            try device.grab()
        } catch {
            logger.error("\(device.node): cannot grab: \(error); reading it shared, with no virtual touchscreen")
            return nil
        }
        return virtual
    }
}

extension EvdevDevice: EvdevReading {
    func readEvents(into events: inout [InputEvent]) -> (resync: DeviceSnapshot?, gone: Bool) {
        switch read(into: &events) {
        case .events: (nil, false)
        case .resync(let snapshot): (snapshot, false)
        case .gone: (nil, true)
        }
    }
}
