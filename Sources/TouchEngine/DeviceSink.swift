import TouchCore
import TouchScene

/// Where a device's pipeline hands its outputs in the engine (`Engine.run`): each finger event and frame end, as
/// the pipeline finds it, to the watcher, then straight into the dispatcher; what the dispatcher dispatches goes
/// into `events` (the engine's buffer, lent for one call) for `broadcastDispatched`.
struct DeviceSink<Watcher: StepWatcher>: PipelineOutputSink {
    /// Unretained (a strong reference cost a retain and a release a call): the sink lives only inside one call of
    /// the engine, which holds its dispatcher in a `let` for its whole life.
    let dispatcher: Unmanaged<Dispatcher>
    let device: DeviceTag
    var events: [DispatchEvent] = []
    var watcher: Watcher

    init(dispatcher: Dispatcher, device: DeviceState, watcher: Watcher) {
        self.dispatcher = Unmanaged.passUnretained(dispatcher)
        self.device = device.tag
        self.watcher = watcher
    }

    @inline(__always)
    mutating func finger(_ mapped: MappedFingerEvent) {
        watcher.finger(mapped)
        guard watcher.dispatches else { return }
        dispatcher._withUnsafeGuaranteedRef { $0.handle(finger: mapped, device: device, into: &events) }
    }

    @inline(__always)
    mutating func frameEnd(_ time: EventTime) {
        watcher.frameEnd(time)
        guard watcher.dispatches else { return }
        dispatcher._withUnsafeGuaranteedRef { $0.handle(frameEnd: time, device: device, into: &events) }
    }

    /// Hands on what the pipeline put in an array (a resync, a cancel), and empties it.
    mutating func hand(_ outputs: inout [PipelineOutput]) {
        for output in outputs {
            switch output {
            case .finger(let mapped): finger(mapped)
            case .frameEnd(let time): frameEnd(time)
            }
        }
        outputs.removeAll(keepingCapacity: true)
    }
}

/// What sees a device's outputs beside the dispatcher, and what follows each step (an input event) of its pipeline.
protocol StepWatcher {
    /// Whether the outputs go on to the dispatcher (off only in an engine without one: `Settings.dispatches`).
    var dispatches: Bool { get }
    mutating func finger(_ mapped: MappedFingerEvent)
    mutating func frameEnd(_ time: EventTime)
    /// After the dispatcher has seen the step.
    mutating func endStep(of device: DeviceState, in engine: Engine)
}

/// Nothing watches: the daemon's usual device (no output, no virtual touchscreen), whose outputs go to the
/// dispatcher alone. A specialisation that pays: a sink that decides at each output what it watches cost 3.4 M more
/// instructions in `touchd-bench` row 5b (115.5 M against 112.1 M, 31 an input event).
struct Unwatched: StepWatcher {
    var dispatches: Bool { true }
    @inline(__always) func finger(_ mapped: MappedFingerEvent) {}
    @inline(__always) func frameEnd(_ time: EventTime) {}
    @inline(__always) func endStep(of device: DeviceState, in engine: Engine) {}
}

/// An output of dispatched events alone (`touchd replay` with a scene): the decoded outputs are counted on the way,
/// the live fingers read once after each step that handed on a finger. A specialisation that pays: through a sink
/// that decides at each output what it watches, `touchd replay -q --scene` counted 1.4 % more (180.9 M against
/// 178.4 M).
struct Counting: StepWatcher {
    var counts: DecodedCounts
    /// A finger went by since the last step's end.
    var handedOnFinger = false

    var dispatches: Bool { true }

    @inline(__always)
    mutating func finger(_ mapped: MappedFingerEvent) {
        counts.note(mapped.event.phase)
        handedOnFinger = true
    }

    @inline(__always)
    mutating func frameEnd(_ time: EventTime) { counts.frameEnds += 1 }

    @inline(__always)
    mutating func endStep(of device: DeviceState, in engine: Engine) {
        guard handedOnFinger else { return }
        handedOnFinger = false
        counts.maxLiveFingers = max(counts.maxLiveFingers, device.pipeline.countLiveFingers())
    }
}

/// The general watcher: a step's outputs are collected and, after it, handed to the output that takes them, or
/// counted, each with the live fingers as the step left them; then the step goes to the device's virtual
/// touchscreen, which needs the dispatcher's decision on each new finger (whether a region claims it).
struct Watching: StepWatcher {
    let output: (any EngineOutput)?
    let takesDecoded: Bool
    let dispatches: Bool
    let forwards: Bool
    /// The step's outputs so far (the engine's `stepBuffer`, lent for one call).
    var step: [PipelineOutput] = []
    /// The engine's `decodedCounts`, lent for one call.
    var counts = DecodedCounts()

    init(output: (any EngineOutput)?, dispatches: Bool, forwards: Bool) {
        self.output = output
        // Without a dispatcher the decoded fingers are all an output can get.
        takesDecoded = output.map { $0.takesDecoded || !dispatches } ?? false
        self.dispatches = dispatches
        self.forwards = forwards
    }

    mutating func finger(_ mapped: MappedFingerEvent) {
        if output != nil { step.append(.finger(mapped)) }
    }

    mutating func frameEnd(_ time: EventTime) {
        if output != nil { step.append(.frameEnd(time)) }
    }

    mutating func endStep(of device: DeviceState, in engine: Engine) {
        if !step.isEmpty {
            // Counted once a step, in place (a read through the class copies the whole decoder).
            let liveFingers = device.pipeline.countLiveFingers()
            for output in step {
                if takesDecoded {
                    self.output?.decoded(output, device: device.tag, liveFingers: liveFingers)
                } else {
                    counts.note(output, liveFingers: liveFingers)
                }
            }
            step.removeAll(keepingCapacity: true)
        }
        // A frame whose every move the jitter filter held back still moves the virtual touchscreen.
        if forwards { engine.forwardToVirtualTouchscreen(from: device) }
    }
}
