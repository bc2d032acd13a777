import TouchCore
import TouchEngine
import TouchFormats
import TouchPosix
import TouchRecordingFiles

/// A recording played as a device (`touchd run --replay`): read as a stream, a batch at a time as the feeder asks,
/// so the daemon holds a read buffer and a batch of events, never the whole recording; the feeder paces it on the
/// monotonic clock.
final class ReplaySource {
    let device: DeviceHandle
    let stream: RecordingStream
    var feeder: ReplayFeeder
    var started = false
    /// Stopped by an error: the file changed, or no longer reads.
    var failed = false

    init(device: DeviceHandle, stream: RecordingStream, feeder: ReplayFeeder) {
        self.device = device
        self.stream = stream
        self.feeder = feeder
    }

    var nextDue: Int64? { started && !failed ? feeder.nextDue : nil }
}

extension Daemon {
    /// The most batches one turn of the loop reads (4,096 events each): a replay far behind its time, or played
    /// very fast, goes on at the next turn, after the clients and devices waiting.
    static let replayBatchesPerTurn = 4

    func openReplay(_ path: String) throws {
        // The first pass reads the whole file here, before the loop runs, to check it and settle its description,
        // on this thread (splitSize nil: the daemon keeps to one thread).
        let stream = try RecordingStream(
            path: path, descriptionPath: options.replayDescriptionPath, splitSize: nil)
        // The replayed device takes the placement and calibration its recording's name is given by the device
        // rules, so that a calibration can be tried (and reloaded, SIGHUP) on a recording of a rotated panel too.
        let description = stream.info.description
        let rule = config.rules(
            name: description.name, node: path, vendor: description.id.vendor, product: description.id.product)
        var mapping = CoordinateMapping.Settings()
        mapping.rotation = rule.rotation ?? 0
        mapping.invertX = rule.invertX ?? false
        mapping.invertY = rule.invertY ?? false
        mapping.calibration = rule.calibration ?? .identity
        var spec = DeviceSpec(
            key: .numbered(prefix: "replay"), node: path, description: stream.info.description, mapping: mapping,
            filter: options.replayFilter)
        spec.stuckTouches = rule.stuckTouchPolicy
        guard let device = engine.addDevice(spec, at: now) else {
            pump()
            throw ReplayError(path: path)
        }
        replay = ReplaySource(
            device: device, stream: stream,
            feeder: ReplayFeeder(
                firstTime: stream.firstEventTime, speed: options.replaySpeed, loop: options.replayLoop))
        let looping = options.replayLoop ? ", looping" : ""
        logger.info("replaying \(path) as \(engine.key(of: device) ?? "?"): \(stream.eventCount) events\(looping)")
        if options.replayWaitsForSubscribers == 0 { startReplay() }
    }

    struct ReplayError: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path): cannot be played as a device (see the warning above)" }
    }

    func startReplay() {
        guard let source = replay, !source.started else { return }
        source.started = true
        source.feeder.start(at: MonotonicClock.nowMicroseconds())
        rewindReplay(source)
    }

    func startReplayWhenSubscribed() {
        let wanted = options.replayWaitsForSubscribers
        if wanted > 0, replay?.started == false, engine.subscriberCount >= wanted { startReplay() }
    }

    /// Hands the engine what is due, reading the recording on as the feeder asks, at most
    /// `replayBatchesPerTurn` batches a turn. A pass that ends ends its fingers still down with cancel
    /// (docs/protocol.md, "End of stream"); a loop then reads the file again from its start, with the scene as it
    /// was installed (`restoreInstalledScene`), and goes on with new fingers.
    func playReplay(upTo time: EventTime) {
        guard let source = replay, source.started, !source.failed else { return }
        var batches = 0
        while true {
            eventBuffer.removeAll(keepingCapacity: true)
            let step = source.feeder.due(upTo: time.microseconds, into: &eventBuffer)
            if !eventBuffer.isEmpty { engine.process(eventBuffer, from: source.device) }
            switch step {
            case .waiting, .finished:
                return
            case .needsEvents:
                // Past the turn's share the feeder's next due time is now: the timer fires again at once.
                guard batches < Self.replayBatchesPerTurn else { return }
                batches += 1
                readReplayBatch(source)
                if source.failed { return }
            case .passEnded(let end):
                engine.endOfStream(source.device, at: end)
            case .nextPass:
                restoreInstalledScene(pass: source.feeder.passes + 1)
                rewindReplay(source)
                if source.failed { return }
            }
        }
    }

    private func rewindReplay(_ source: ReplaySource) {
        do {
            try source.stream.rewind()
        } catch {
            stopReplay(source, error)
        }
    }

    private func readReplayBatch(_ source: ReplaySource) {
        do {
            let more = try source.stream.nextBatch { events in source.feeder.append(events) }
            if !more { source.feeder.endOfEvents() }
        } catch {
            stopReplay(source, error)
        }
    }

    /// The recording no longer reads as it did (it changed since, or cannot be read): the replay ends there, its
    /// fingers still down with cancel; the daemon goes on serving.
    private func stopReplay(_ source: ReplaySource, _ error: RecordingError) {
        source.failed = true
        engine.endOfStream(source.device, at: now)
        logger.error("replay stopped: \(error)")
    }

    /// Each pass of a loop plays on the scene as it was last installed (loaded from its file, set by a client, or
    /// edited), not as the pass before left it: a region a drag moved, or a container a drag scrolled, is back
    /// where it was, so the recording's touches meet what they met the first time. Clients hear it as any scene
    /// change (`scene` events, a new version). Nothing happens when nothing moved.
    private func restoreInstalledScene(pass: Int) {
        guard engine.liveSceneDiffersFromInstalled else { return }
        engine.install(engine.scene, source: "replay pass \(pass) (the installed scene, drags undone)", at: now)
    }
}
