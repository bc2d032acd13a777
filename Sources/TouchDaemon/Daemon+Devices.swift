import FoundationEssentials
import Glibc
import TouchCore
import TouchDevice
import TouchEngine
import TouchPosix
import TouchScene
import TouchWire

extension Daemon {
    func deviceChanged(_ change: DeviceManager.Change) {
        switch change {
        case .opened(let device, let settings, _):
            addDevice(device, settings: settings)
        case .removed(let node):
            if let index = sources.first(where: { $0.value.node == node })?.key {
                removeDevice(index, reason: "unplugged")
            }
        }
    }

    func addDevice(_ device: EvdevDevice, settings: CoordinateMapping.Settings) {
        guard let index = deviceIndices.allocate(inUse: { sources[$0] != nil }) else {
            logger.warning("\(device.node): 65,536 devices are open; not using another")
            return
        }
        let name = URL(fileURLWithPath: device.node).lastPathComponent
        let source: InputSource
        do {
            source = try InputSource(
                tag: DeviceTag(index: index, name: name), node: device.node, description: device.description,
                mappingSettings: settings, sceneSize: (scene.width, scene.height))
        } catch {
            logger.warning("\(device.node): \(error)")
            return
        }
        source.evdev = device
        do {
            source.loopToken = try loop.register(device.fd, for: .readable) { [unowned self] readiness in
                readDevice(index)
            }
        } catch {
            logger.warning("\(device.node): \(error)")
            return
        }
        sources[index] = source
        reportStatus()
        notify(ServerMessages.deviceAdded(source.summary), kind: .device)
    }

    func readDevice(_ index: UInt16) {
        guard let source = sources[index], let device = source.evdev else { return }
        eventBuffer.removeAll(keepingCapacity: true)
        let (snapshot, gone) = device.readEvents(into: &eventBuffer)
        if !eventBuffer.isEmpty { process(eventBuffer, from: index) }
        if let snapshot { resync(index, to: snapshot) }
        if gone { removeDevice(index, reason: "read failed (removed)") }
        flushClients()
        rearmTimer()
    }

    /// Ends the device's live fingers with cancel and forgets it.
    func removeDevice(_ index: UInt16, reason: String) {
        guard let source = sources[index] else { return }
        cancelTouches(of: index, at: EventTime(microseconds: MonotonicClock.nowMicroseconds()))
        if let token = source.loopToken { loop.deregister(token) }
        source.evdev = nil  // the device closes (and ungrabs) when released
        sources[index] = nil
        devices?.forget(source.node)
        logger.notice("\(source.node): \(reason); its touches were cancelled")
        reportStatus()
        notify(ServerMessages.deviceRemoved(key: source.tag.name), kind: .device)
        flushClients()
    }
}
