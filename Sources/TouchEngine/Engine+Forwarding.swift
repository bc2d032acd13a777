import TouchCore

extension Engine {
    /// The fingers of a device with a virtual touchscreen that no region claims, from the decoder's own output
    /// (every move the kernel reported: the jitter filter is for touchd's regions; the compositor has its own),
    /// after the dispatcher has seen the same step: decided at each finger's down by the dispatcher's hit test,
    /// then followed until it lifts or is cancelled, whatever the scene does meanwhile (a compositor cannot take
    /// back a touch it has seen begin). Each completed frame is one `.emit` effect.
    func forwardToVirtualTouchscreen(from device: DeviceState) {
        takeBackFingers(at: now)
        device.pipeline.takeDecoded { output in
            switch output {
            case .finger(let event):
                if event.phase == .down {
                    let claimed = settings.dispatches && dispatcher.claims(event.finger, device: device.tag)
                    if !claimed, device.forwarder?.begin(event) == false { logUnforwarded(event, of: device) }
                } else {
                    device.forwarder?.follow(event)
                }
            case .frameEnd(let time):
                if let frame = device.forwarder?.endFrame(at: time) {
                    effects.append(.emit(DeviceHandle(device.tag.index), frame))
                }
            }
        }
    }

    /// The fingers a gesture took since the last look (`takeFingers`): each one forwarded is cancelled on its
    /// device's virtual touchscreen (palm, then lifted: two frames, one `.emit`). Fingers not forwarded need
    /// nothing: `claims` keeps them from the virtual touchscreen from their down on.
    /// Inlined: asked every frame, and nearly always with nothing taken, where the call cost more than the test.
    @inline(__always)
    func takeBackFingers(at time: EventTime) {
        guard settings.dispatches, dispatcher.hasTakenFingers else { return }
        cancelTakenFingers(at: time)
    }

    private func cancelTakenFingers(at time: EventTime) {
        for key in dispatcher.takeTakenFingers() {
            guard let device = devices[key.device], let frames = device.forwarder?.take(key.finger, at: time) else {
                continue
            }
            effects.append(.emit(DeviceHandle(key.device), frames))
        }
    }

    private func logUnforwarded(_ event: FingerEvent, of device: DeviceState) {
        let (shouldLog, heldBack) = device.unforwardedLog.admit(at: event.time.microseconds)
        guard shouldLog else { return }
        let more = heldBack > 0 ? " (and \(heldBack) more since the last report)" : ""
        log(.warning, "\(device.tag.name): no free slot on the virtual touchscreen; finger not forwarded\(more)")
    }

    /// Fingers down on a device's virtual touchscreen (tests and the status).
    public func virtualFingerCount(of device: DeviceHandle) -> Int {
        devices[device.index]?.forwarder?.liveFingerCount ?? 0
    }
}
