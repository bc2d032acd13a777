import TouchCore
import TouchWire

/// Touches the panel never lifts (`StuckTouchPolicy`, per device): at the time a touch passes a limit it is
/// cancelled for clients and taken back from the compositor on the virtual touchscreen (its slot turns
/// `MT_TOOL_PALM`, then lifts: libinput's touch cancel), with a log line and a count in the status line. The time is
/// the events' own: a limit passes before the first event at or after it, or when `advance(to:)` reaches it, so a
/// device that sends nothing more still has its touch cancelled at the limit.
extension Engine {
    /// The earliest time a touch of any device passes a stuck-touch limit.
    var stuckDeadline: EventTime? {
        var earliest: EventTime?
        for device in devices.values where device.watchesStuck {
            earliest = EventTime.earliest(earliest, device.pipeline.stuckDeadline())
        }
        return earliest
    }

    /// Cancels every touch past a limit by `time`, device after device in the order of their limits (the lower index
    /// first at the same time).
    func cancelStuckTouches(upTo time: EventTime) {
        while true {
            var next: (due: EventTime, device: DeviceState)?
            for device in devices.values where device.watchesStuck {
                guard let due = device.pipeline.stuckDeadline(), due <= time else { continue }
                if let found = next, (found.due, found.device.tag.index) < (due, device.tag.index) { continue }
                next = (due, device)
            }
            guard let next else { return }
            run(EmptyCollection(), then: .cancelStuck(upTo: next.due), on: next.device)
        }
    }

    /// Cancels the device's touches past a limit by `time`, each at its limit, after the gesture timers due before it:
    /// a step of `run`, whose sink hands the cancels on as any step's outputs.
    func cancelStuckTouches<Watcher: StepWatcher>(
        of device: DeviceState, upTo time: EventTime, into sink: inout DeviceSink<Watcher>
    ) {
        while let due = device.pipeline.stuckDeadline(), due <= time {
            if sink.watcher.dispatches, let deadline = dispatcher.nextDeadline, deadline <= due {
                dispatcher.advance(to: due, into: &sink.events)
            }
            let cancelled = device.pipeline.cancelStuckTouches(at: due, into: &pipelineBuffer)
            guard !cancelled.isEmpty else { continue }
            var at = due
            if case .frameEnd(let time)? = pipelineBuffer.last { at = time }
            if device.forwards {
                for item in cancelled {
                    if let frames = device.forwarder?.take(item.finger, at: at) {
                        effects.append(.emit(DeviceHandle(device.tag.index), frames))
                    }
                }
            }
            sink.hand(&pipelineBuffer)
            sink.watcher.endStep(of: device, in: self)
            for item in cancelled { logStuck(item, of: device) }
            stuckTouchesCancelled += cancelled.count
            reportStatus()
        }
    }

    private func logStuck(_ item: StuckTouchCancel, of device: DeviceState) {
        let seconds = Self.secondsText(item.duration)
        let why =
            item.rule == .silent
            ? "it reported nothing for \(seconds) s while other touches did"
            : "it stayed within the jitter radius (\(Int(StuckTouchPolicy.jitterMillimetres)) mm) for \(seconds) s"
        log(
            .warning,
            "\(device.node) (\"\(device.description.name)\"): touch in slot \(item.slot) cancelled as stuck: \(why)")
    }

    /// Stuck touches cancelled on a device so far.
    public func stuckCancels(of device: DeviceHandle) -> Int? {
        devices[device.index]?.pipeline.diagnostics.stuckCancels
    }

    /// The devices' summaries with their stuck-touch counts (the `devices` reply).
    var deviceSummariesWithCounts: [ServerMessages.DeviceSummary] {
        devices.keys.sorted().compactMap { index in
            guard let device = devices[index] else { return nil }
            var summary = device.summary
            summary.stuckCancels = device.pipeline.diagnostics.stuckCancels
            return summary
        }
    }

    /// `5.000`: seconds with milliseconds.
    static func secondsText(_ duration: EventTime.Duration) -> String {
        let milliseconds = max(0, duration.microseconds / 1000)
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
