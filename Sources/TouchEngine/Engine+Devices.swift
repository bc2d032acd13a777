import TouchCore
import TouchScene
import TouchWire

/// One device feeding the dispatcher: its own decoder and mapping (the pipeline), and a tag that names it in every
/// event. A class, so the per-event path mutates the pipeline in place.
final class DeviceState {
    let tag: DeviceTag
    let node: String
    let description: DeviceDescription
    var mappingSettings: CoordinateMapping.Settings
    /// Maps to the scene's size, and follows it when the scene changes.
    let followsScene: Bool
    var pipeline: TouchPipeline
    /// The virtual touchscreen's encoder, for a device added with one; `forwards` says so without reading it.
    var forwarder: TouchForwarder?
    let forwards: Bool
    /// Fingers that found no free slot on the virtual touchscreen: logged at most once a second.
    var unforwardedLog = LogThrottle()
    /// The stuck-touch rules are on: the per-event path looks at their deadline only then.
    let watchesStuck: Bool

    init(tag: DeviceTag, spec: DeviceSpec, sceneSize: (Double, Double)) throws(CoordinateMapping.Error) {
        self.tag = tag
        node = spec.node
        description = spec.description
        mappingSettings = spec.mapping
        followsScene = spec.mapsToScene
        forwarder = spec.virtualTouchscreen.map(TouchForwarder.init(description:))
        forwards = forwarder != nil
        var settings = spec.mapping
        if followsScene { settings.outputSize = sceneSize }
        // Finger ids unique across devices: each device counts in its own range (2^24 touches each).
        var decoderOptions = TouchDecoder.Options()
        decoderOptions.firstFingerID = UInt32(tag.index) << 24 + 1
        decoderOptions.palmMajor = spec.palmMajor
        decoderOptions.stuckTouches = spec.stuckTouches
        watchesStuck = !spec.stuckTouches.isOff
        pipeline = TouchPipeline(
            decoder: TouchDecoder(description: spec.description, options: decoderOptions),
            mapping: try CoordinateMapping(device: spec.description, settings: settings), filter: spec.filter)
        pipeline.keepsDecoded = forwards
    }

    /// Follows a new scene size; the decoder and its live fingers stay.
    func resize(to sceneSize: (Double, Double)) {
        guard followsScene else { return }
        var settings = mappingSettings
        settings.outputSize = sceneSize
        if let mapping = try? CoordinateMapping(device: description, settings: settings) { pipeline.mapping = mapping }
    }

    /// New settings (another monitor chosen); the decoder and its live fingers stay, and move on in the new place.
    func remap(_ settings: CoordinateMapping.Settings, sceneSize: (Double, Double)) throws(CoordinateMapping.Error) {
        var effective = settings
        if followsScene { effective.outputSize = sceneSize }
        pipeline.mapping = try CoordinateMapping(device: description, settings: effective)
        mappingSettings = settings
    }

    var summary: ServerMessages.DeviceSummary {
        ServerMessages.DeviceSummary(
            key: tag.name, name: description.name, node: node,
            slots: description.touchProtocol == .slotted ? description.slotCount : 1,
            touchProtocol: description.touchProtocol.rawValue, xAxis: description.xAxis, yAxis: description.yAxis,
            rotation: mappingSettings.rotation, invertX: mappingSettings.invertX, invertY: mappingSettings.invertY)
    }
}

extension Engine {
    /// Adds a device; nil (and a warning) when its axes cannot be mapped or 65,536 devices are open.
    public func addDevice(_ spec: DeviceSpec, at time: EventTime) -> DeviceHandle? {
        now = max(now, time)
        guard let index = deviceIndices.allocate(inUse: { devices[$0] != nil }) else {
            log(.warning, "\(spec.node): 65,536 devices are open; not using another")
            return nil
        }
        let name: String
        switch spec.key {
        case .named(let key): name = key
        case .numbered(let prefix): name = prefix + String(index)
        }
        let device: DeviceState
        do {
            device = try DeviceState(
                tag: DeviceTag(index: index, name: name), spec: spec, sceneSize: (scene.width, scene.height))
        } catch {
            log(.warning, "\(spec.node): \(error)")
            return nil
        }
        setDevice(device, at: index)
        reportStatus()
        notify(ServerMessages.deviceAdded(device.summary), kind: .device, device: name)
        return DeviceHandle(index)
    }

    /// Gives a device new mapping settings (`"output": "auto"` re-decided on a monitor hotplug); false when there is
    /// no such device or its axes cannot take them.
    @discardableResult
    public func remap(_ id: DeviceHandle, settings: CoordinateMapping.Settings) -> Bool {
        guard let device = devices[id.index] else { return false }
        do {
            try device.remap(settings, sceneSize: (scene.width, scene.height))
        } catch {
            log(.warning, "\(device.node): \(error)")
            return false
        }
        return true
    }

    /// The mapping a device's positions go through now.
    public func mapping(of id: DeviceHandle) -> CoordinateMapping? { devices[id.index]?.pipeline.mapping }

    /// The device's key in events ("event3", "replay0").
    public func key(of device: DeviceHandle) -> String? { devices[device.index]?.tag.name }

    /// The decoder of a device, for its diagnostics and live fingers.
    public func decoder(of device: DeviceHandle) -> TouchDecoder? { devices[device.index]?.pipeline.decoder }

    /// The decoder's counts for a device, with the moves its jitter filter suppressed.
    public func diagnostics(of device: DeviceHandle) -> DecoderDiagnostics? {
        devices[device.index]?.pipeline.diagnostics
    }

    /// A device's jitter filter, with the margins it uses.
    public func positionFilter(of device: DeviceHandle) -> FingerPositionFilter? {
        devices[device.index]?.pipeline.filter
    }

    /// Runs a batch of the device's events through its pipeline and the dispatcher and queues the results for
    /// clients. A gesture timer due by an event's time fires before that event, so the order of the output
    /// depends on the events' times alone, never on when the batch arrived.
    public func process<Events: BidirectionalCollection<InputEvent>>(_ events: Events, from id: DeviceHandle) {
        guard let device = device(at: id.index) else { return }
        let end = events.last?.time
        // The dispatched events are shown and queued while the sink still has them: put back first, they had to be
        // lent again.
        device._withUnsafeGuaranteedRef {
            run(events, on: $0) { dispatched in
                if let end { now = max(now, end) }
                // A taking gesture on a device that forwards nothing still empties the dispatcher's list.
                takeBackFingers(at: now)
                showAndQueue(dispatched)
            }
        }
        noteDispatchedShown()
    }

    /// The kernel dropped events (SYN_DROPPED): the device's state as read afterwards replaces what was lost.
    public func resync(_ id: DeviceHandle, to snapshot: DeviceSnapshot, at time: EventTime) {
        guard let device = devices[id.index] else { return }
        now = max(now, time)
        run(EmptyCollection(), then: .resync(snapshot, at: time), on: device)
        broadcastDispatched()
        log(
            .warning,
            "\(device.tag.name): events dropped by the kernel (SYN_DROPPED); resynchronised from the device state")
    }

    /// The device's stream ended (a recording's last event, a pass of a loop): fingers still down never lifted,
    /// so they end with cancel (docs/protocol.md, "End of stream"). The device stays.
    public func endOfStream(_ id: DeviceHandle, at time: EventTime) {
        now = max(now, time)
        cancelTouches(of: id, at: time)
    }

    /// Ends the device's live fingers with cancel and forgets it.
    public func removeDevice(_ id: DeviceHandle, reason: String, at time: EventTime) {
        guard let device = devices[id.index] else { return }
        now = max(now, time)
        cancelTouches(of: id, at: time)
        setDevice(nil, at: id.index)
        log(.notice, "\(device.node): \(reason); its touches were cancelled")
        reportStatus()
        notify(ServerMessages.deviceRemoved(key: device.tag.name), kind: .device, device: device.tag.name)
    }

    func cancelTouches(of id: DeviceHandle, at time: EventTime) {
        guard let device = devices[id.index] else { return }
        run(EmptyCollection(), then: .cancel(at: time), on: device)
        broadcastDispatched()
    }

    /// The one way a device's work goes: its pipeline hands each output, as it finds it, to a `DeviceSink`, which
    /// shows it to what watches the steps and hands it to the dispatcher; what the dispatcher dispatches waits in
    /// `dispatchBuffer` for `broadcastDispatched`. The watcher is the only choice, made once a call: the daemon's
    /// usual device has none (`Unwatched`).
    /// `dispatched` sees the events in `dispatchBuffer` (those dispatched now after those of earlier turns) before
    /// the sink puts them back there.
    @inline(__always)
    func run<Events: Collection<InputEvent>>(
        _ events: Events, then end: StreamStep = .none, on device: DeviceState,
        dispatched: ([DispatchEvent]) -> Void = { _ in }
    ) {
        if device.forwards || !settings.dispatches || output?.takesDecoded == true {
            var sink = DeviceSink(
                dispatcher: dispatcher, device: device,
                watcher: Watching(output: output, dispatches: settings.dispatches, forwards: device.forwards))
            swap(&sink.watcher.step, &stepBuffer)
            swap(&sink.watcher.counts, &decodedCounts)
            run(events, then: end, on: device, into: &sink, dispatched: dispatched)
            swap(&sink.watcher.step, &stepBuffer)
            swap(&sink.watcher.counts, &decodedCounts)
        } else if output != nil {
            var sink = DeviceSink(dispatcher: dispatcher, device: device, watcher: Counting(counts: decodedCounts))
            run(events, then: end, on: device, into: &sink, dispatched: dispatched)
            decodedCounts = sink.watcher.counts
        } else {
            var sink = DeviceSink(dispatcher: dispatcher, device: device, watcher: Unwatched())
            run(events, then: end, on: device, into: &sink, dispatched: dispatched)
        }
    }

    /// The events one at a time, each a step (a gesture timer due by its time fires first), then `end` as one more.
    @inline(__always)
    private func run<Events: Collection<InputEvent>, Watcher: StepWatcher>(
        _ events: Events, then end: StreamStep, on device: DeviceState, into sink: inout DeviceSink<Watcher>,
        dispatched: ([DispatchEvent]) -> Void
    ) {
        swap(&sink.events, &dispatchBuffer)
        var stuckDue = device.watchesStuck ? device.pipeline.stuckDeadline() : nil
        for event in events {
            if let due = stuckDue, due <= event.time {
                cancelStuckTouches(of: device, upTo: event.time, into: &sink)
                stuckDue = device.pipeline.stuckDeadline()
            }
            if sink.watcher.dispatches, let deadline = dispatcher.nextDeadline, deadline <= event.time {
                dispatcher.advance(to: event.time, into: &sink.events)
            }
            if !device.pipeline.takeAxis(event) { device.pipeline.process(event, handingTo: &sink) }
            sink.watcher.endStep(of: device, in: self)
            // Only a frame's end changes what the rules watch (a cancel of them all aside, which leaves nothing due).
            if device.watchesStuck && event.type == EventType.syn { stuckDue = device.pipeline.stuckDeadline() }
        }
        switch end {
        case .none: break
        case .cancelStuck(let time):
            cancelStuckTouches(of: device, upTo: time, into: &sink)
        case .resync(let snapshot, let time):
            device.pipeline.resync(to: snapshot, at: time, into: &pipelineBuffer)
            sink.hand(&pipelineBuffer)
            sink.watcher.endStep(of: device, in: self)
        case .cancel(let time):
            device.pipeline.cancelAll(at: time, into: &pipelineBuffer)
            sink.hand(&pipelineBuffer)
            sink.watcher.endStep(of: device, in: self)
        }
        dispatched(sink.events)
        swap(&sink.events, &dispatchBuffer)
    }

    var deviceSummaries: [ServerMessages.DeviceSummary] {
        devices.keys.sorted().compactMap { devices[$0]?.summary }
    }
}

/// A step of a device's pipeline that is not an input event: after a resync, or the end of its fingers.
enum StreamStep {
    case none
    case resync(DeviceSnapshot, at: EventTime)
    case cancel(at: EventTime)
    /// The touches past a stuck-touch limit by then (`Engine+StuckTouches.swift`).
    case cancelStuck(upTo: EventTime)
}
