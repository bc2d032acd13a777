import TouchCore
import TouchEngine
import TouchFormats
import TouchPosix

/// A recording played as a device (`touchd run --replay`): the feeder paces it on the monotonic clock.
struct ReplaySource {
    let device: DeviceHandle
    var feeder: ReplayFeeder
    var started = false

    var nextDue: Int64? { started ? feeder.nextDue : nil }
}

extension Daemon {
    func openReplay(_ path: String) throws {
        let recording = try RecordingLoader.load(path: path, descriptionPath: options.replayDescriptionPath)
        let spec = DeviceSpec(
            key: .numbered(prefix: "replay"), node: path, description: recording.description,
            filter: options.replayFilter)
        guard let device = engine.addDevice(spec, at: now) else {
            pump()
            throw ReplayError(path: path)
        }
        replay = ReplaySource(
            device: device,
            feeder: ReplayFeeder(recording: recording, speed: options.replaySpeed, loop: options.replayLoop))
        let looping = options.replayLoop ? ", looping" : ""
        logger.info(
            "replaying \(path) as \(engine.key(of: device) ?? "?"): \(recording.events.count) events\(looping)")
        if options.replayWaitsForSubscribers == 0 { startReplay() }
    }

    struct ReplayError: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path): cannot be played as a device (see the warning above)" }
    }

    func startReplay() {
        guard var source = replay, !source.started else { return }
        source.started = true
        source.feeder.start(at: MonotonicClock.nowMicroseconds())
        replay = source
    }

    func startReplayWhenSubscribed() {
        let wanted = options.replayWaitsForSubscribers
        if wanted > 0, replay?.started == false, engine.subscriberCount >= wanted { startReplay() }
    }

    /// Hands the engine what is due. A pass that ends ends its fingers still down with cancel before the next
    /// pass starts (docs/protocol.md, "End of stream"); a loop then goes on with new fingers.
    func playReplay(upTo time: EventTime) {
        guard var source = replay, source.started else { return }
        while true {
            eventBuffer.removeAll(keepingCapacity: true)
            let passEnd = source.feeder.due(upTo: time.microseconds, into: &eventBuffer)
            if !eventBuffer.isEmpty { engine.process(eventBuffer, from: source.device) }
            guard let passEnd else { break }
            engine.endOfStream(source.device, at: passEnd)
        }
        replay = source
    }
}
