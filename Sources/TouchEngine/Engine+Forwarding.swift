import TouchCore

extension Engine {
    /// The fingers of a device with a virtual touchscreen that no region claims: decided at each finger's down
    /// (after the dispatcher's hit test), then followed until it lifts or is cancelled, whatever the scene does
    /// meanwhile (a compositor cannot take back a touch it has seen begin). Each completed frame is one
    /// `.emit` effect.
    func forwardToVirtualTouchscreen(_ output: PipelineOutput, from device: DeviceState) {
        switch output {
        case .finger(let mapped):
            let event = mapped.event
            if event.phase == .down {
                let claimed = settings.dispatches && dispatcher.claims(event.finger, device: device.tag)
                if !claimed, device.forwarder?.begin(event) == false {
                    let (shouldLog, heldBack) = device.unforwardedLog.admit(at: event.time.microseconds)
                    if shouldLog {
                        let more = heldBack > 0 ? " (and \(heldBack) more since the last report)" : ""
                        log(
                            .warning,
                            "\(device.tag.name): no free slot on the virtual touchscreen; finger not forwarded\(more)")
                    }
                }
            } else {
                device.forwarder?.follow(event)
            }
        case .frameEnd(let time):
            if let frame = device.forwarder?.endFrame(at: time) {
                effects.append(.emit(DeviceHandle(device.tag.index), frame))
            }
        }
    }

    /// Fingers down on a device's virtual touchscreen (tests and the status).
    public func virtualFingerCount(of device: DeviceHandle) -> Int {
        devices[device.index]?.forwarder?.liveFingerCount ?? 0
    }
}
