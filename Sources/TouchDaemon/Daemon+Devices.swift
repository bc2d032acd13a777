import FoundationEssentials
import TouchCore
import TouchDevice
import TouchEngine
import TouchPosix

/// What the daemon needs from a live device reader (TouchDevice's EvdevDevice), kept as a protocol so the
/// daemon's wiring does not depend on libevdev's types.
protocol EvdevReading: AnyObject {
    var fd: Int32 { get }
    /// Reads what one read gives, or up to a SYN_DROPPED: then the result is the state it was resolved to, which
    /// the caller hands the engine after the events, and the events after the drop are the next call's. A throw
    /// ends the device (unplugged, or failed).
    func readEvents(into events: inout [InputEvent]) throws(DeviceReadError) -> DeviceSnapshot?
}

/// An open device and its registration in the loop; its pipeline is the engine's.
struct LiveDevice {
    let reader: EvdevReading
    let node: String
    let token: UInt64
    /// Where the engine's `.emit` frames go (`forwardUnclaimed`); destroyed with this record.
    let virtual: UinputTouchscreen?
}

extension Daemon {
    func deviceChanged(_ change: DeviceManager.Change) {
        switch change {
        case .opened(let device, let description, let settings, let filter, _, let virtual):
            addDevice(device, description: description, settings: settings, filter: filter, virtual: virtual)
        case .removed(let node):
            if let id = sources.first(where: { $0.value.node == node })?.key {
                removeDevice(id, reason: "unplugged")
            }
        case .remapped(let node, let settings):
            if let id = sources.first(where: { $0.value.node == node })?.key { engine.remap(id, settings: settings) }
        }
        pump()
    }

    func addDevice(
        _ device: EvdevDevice, description: DeviceDescription, settings: CoordinateMapping.Settings,
        filter: JitterFilter, virtual: UinputTouchscreen?
    ) {
        let name = URL(fileURLWithPath: device.node).lastPathComponent
        var spec = DeviceSpec(
            key: .named(name), node: device.node, description: description, mapping: settings, filter: filter,
            virtualTouchscreen: virtual?.description)
        let rule = config.rules(
            name: description.name, node: device.node, vendor: description.id.vendor, product: description.id.product)
        spec.palmMajor = PalmSize.deviceUnits(rule.palmSize, on: description)
        if let units = spec.palmMajor { logger.info("\(device.node): palms above \(units) units of touch size") }
        spec.stuckTouches = rule.stuckTouchPolicy
        guard let id = engine.addDevice(spec, at: now) else { return }
        do {
            // The handler holds the reader itself: no lookup of the device's record every wake-up, and the
            // descriptor stays open until the handler is deregistered (`removeDevice`, `shutdown`).
            let token = try loop.register(device.fd, for: .readable) { [unowned self] _ in
                readDevice(id, from: device)
            }
            sources[id] = LiveDevice(reader: device, node: device.node, token: token, virtual: virtual)
        } catch {
            logger.warning("\(device.node): \(error)")
            engine.removeDevice(id, reason: "cannot be watched", at: now)
        }
    }

    /// Called by the device's handler in the loop only, which is deregistered when the device is removed. One read
    /// a wake-up; a read that stops at a drop is followed by the state it resynchronised to, then the reading goes
    /// on, so the events after the drop follow that state (and the fingers held through the drop go on).
    func readDevice(_ id: DeviceHandle, from reader: EvdevReading) {
        while true {
            eventBuffer.removeAll(keepingCapacity: true)
            var snapshot: DeviceSnapshot?
            var failure: DeviceReadError?
            do {
                snapshot = try reader.readEvents(into: &eventBuffer)
            } catch {
                failure = error
            }
            if !eventBuffer.isEmpty { engine.process(eventBuffer, from: id) }
            if let snapshot { engine.resync(id, to: snapshot, at: now) }
            if let failure {
                removeDevice(id, reason: failure.reason)
                break
            }
            if snapshot == nil { break }
        }
        pump()
    }

    /// The engine ends the device's live fingers with cancel (lifted on its virtual touchscreen, whose frames are
    /// written before it goes); the device closes (and ungrabs) and its virtual touchscreen is destroyed when
    /// released.
    func removeDevice(_ id: DeviceHandle, reason: String) {
        guard let source = sources[id] else { return }
        engine.removeDevice(id, reason: reason, at: now)
        pump()
        sources[id] = nil
        failedVirtualWrites.remove(id)
        loop.deregister(source.token)
        devices?.forget(source.node)
    }

    /// `.emit`: a frame for the device's virtual touchscreen.
    func emit(_ frame: [InputEvent], to id: DeviceHandle) {
        guard let virtual = sources[id]?.virtual else { return }
        do {
            try virtual.write(frame)
        } catch {
            if failedVirtualWrites.insert(id).inserted {
                logger.warning("\(error); the compositor may miss fingers (logged once for this device)")
            }
        }
    }
}
