import Foundation
import TouchCore
import TouchEngine
import TouchFormats
import TouchJSON
import TouchScene
import TouchWire

/// Benchmarks 1 and 2: the offline pipeline from file to NDJSON, and the decoder alone.
enum PipelineBenchmarks {
    struct SetupError: Error, CustomStringConvertible {
        var description: String { "the engine refused the benchmark's device or client" }
    }

    /// Benchmark 1: the engine the daemon runs (TouchEngine), from the file's bytes to one subscriber's: parse,
    /// decode, dispatch through a scene of `regions` regions with gestures, encode, queue and flush. The client's
    /// socket takes everything (a `write` that counts), fed a frame at a time as a device read would. Heap
    /// allocations are counted from the first frame past a tenth of the events (buffers have grown by then) to the
    /// last: the per-event path should make none.
    static func pipeline(file: String, regions: Int) throws
        -> (events: Int, seconds: Double, outputBytes: Int, writes: Int, frames: Int, allocations: UInt64)
    {
        var factory = SceneFactory(seed: 7)
        let scene = factory.scene(count: regions, width: 1920, height: 1080, gestures: true)
        let start = Measure.nanoseconds()
        let bytes = [UInt8](FileManager.default.contents(atPath: file) ?? Data())
        let recording = try EvemuReader.parse(bytes, file: file)
        let parsed = Measure.nanoseconds()
        if ProcessInfo.processInfo.environment["TOUCHD_BENCH_BREAKDOWN"] != nil {
            print("  read+parse \(Measure.format(Double(parsed - start) / 1e9, decimals: 3)) s")
        }
        let engine = Engine(scene: scene)
        // TOUCHD_BENCH_FILTER=off|fuzz|one-euro: the device's jitter filter (default: the daemon's, fuzz).
        let filterName = ProcessInfo.processInfo.environment["TOUCHD_BENCH_FILTER"] ?? JitterFilter.standard.name
        let filter = (try? JitterFilter.make(name: filterName, parameters: [])) ?? .standard
        guard
            let device = engine.addDevice(
                DeviceSpec(key: .named("bench"), node: "bench", description: recording.description, filter: filter),
                at: .zero),
            case .admitted(let client) = engine.connect(
                PeerCredentials(pid: 1, uid: 0, gid: 0, groups: [0]), at: .zero)
        else { throw SetupError() }
        // TOUCHD_BENCH_SUBSCRIBE: the client's subscribe request (default: everything, the daemon's usual case);
        // e.g. {"op":"subscribe","events":["touch","gesture"]}, as `touchctl monitor --events` sends, takes the
        // filtering path.
        let subscribe = ProcessInfo.processInfo.environment["TOUCHD_BENCH_SUBSCRIBE"] ?? #"{"op":"subscribe"}"#
        engine.receive(Array(subscribe.utf8 + [10])[...], from: client, at: .zero)
        var output = Written()
        var effects: [EngineEffect] = []
        Self.drain(engine, at: .zero, effects: &effects, into: &output)
        let hello = output
        // A frame a read, as the device's reads come: where each ends is found here, outside the count, since the
        // daemon is handed each read's events whole and never looks for the frames' ends.
        let frameEnds = recording.events.indices.filter { recording.events[$0].isSynReport }
        let run = runInputEvents(
            recording.events, endingAt: frameEnds, through: engine, from: device, effects: &effects, into: &output)
        let seconds = Double(Measure.nanoseconds() - start) / 1e9
        return (
            recording.events.count, seconds, output.bytes - hello.bytes, output.writes - hello.writes, run.frames,
            run.allocations
        )
    }

    /// The engine's work on input events as the daemon sees them, from events read to bytes written: a frame at a
    /// time, each followed by the flush of what it queued, then the end of the stream. Never inlined, so that
    /// callgrind can count it alone (`--toggle-collect='*runInputEvents*'`, scripts/bench.sh row 5): the
    /// benchmark's parsing of the file, its split into frames (`frameEnds`) and the engine's start-up are outside
    /// it.
    @inline(never)
    static func runInputEvents(
        _ events: [InputEvent], endingAt frameEnds: [Int], through engine: Engine, from device: DeviceHandle,
        effects: inout [EngineEffect], into output: inout Written
    ) -> (frames: Int, allocations: UInt64) {
        var frameStart = events.startIndex
        let warm = events.count / 10
        var allocationsAtWarm: UInt64?
        for end in frameEnds {
            if allocationsAtWarm == nil && end >= warm { allocationsAtWarm = Measure.allocations() }
            engine.process(events[frameStart...end], from: device)
            drain(engine, at: events[end].time, effects: &effects, into: &output)
            frameStart = end + 1
        }
        let allocations = Measure.allocations() - (allocationsAtWarm ?? Measure.allocations())
        engine.endOfStream(device, at: events.last?.time ?? .zero)
        engine.advance(to: .max)
        drain(engine, at: .max, effects: &effects, into: &output)
        return (frameEnds.count, allocations)
    }

    /// What the daemon's loop would have written.
    struct Written {
        var bytes = 0
        var writes = 0
    }

    /// Writes out what the engine queued, as the daemon's loop does, counting instead of sending. A function of its
    /// own with the tally passed in: counted in variables that a nested function captured, each addition cost a
    /// runtime exclusivity check (this target keeps them, the daemon's loop does not), 2.8 M instructions of the
    /// 108,940-event run that were the benchmark's and not the engine's.
    static func drain(_ engine: Engine, at time: EventTime, effects: inout [EngineEffect], into output: inout Written) {
        while engine.hasEffects {
            engine.takeEffects(into: &effects)
            for case .flush(let id) in effects {
                engine.flush(id, at: time) { raw in
                    output.writes += 1
                    output.bytes += raw.count
                    return .wrote(raw.count)
                }
            }
        }
    }

    /// Benchmark 2: the decoder alone on raw input_event data (already in memory as bytes). With
    /// TOUCHD_BENCH_FILTER set, the decoder, that jitter filter and the mapping (`TouchPipeline`) instead: its
    /// allocations per frame show the filter allocates nothing per event.
    static func decoder(rawFile: String, description: DeviceDescription) throws
        -> (events: Int, frames: Int, seconds: Double, allocationsPerFrame: Double)
    {
        let bytes = [UInt8](FileManager.default.contents(atPath: rawFile) ?? Data())
        let events = try RawEventReader.parse(bytes, file: rawFile)
        if let name = ProcessInfo.processInfo.environment["TOUCHD_BENCH_FILTER"] {
            var pipeline = TouchPipeline(
                decoder: TouchDecoder(description: description),
                mapping: try CoordinateMapping(device: description),
                filter: (try? JitterFilter.make(name: name, parameters: [])) ?? .standard)
            var outputs: [PipelineOutput] = []
            outputs.reserveCapacity(64)
            return measureDecoding(events) { event in
                pipeline.process(event, into: &outputs)
                outputs.removeAll(keepingCapacity: true)
            }
        }
        var decoder = TouchDecoder(description: description)
        var outputs: [DecoderOutput] = []
        outputs.reserveCapacity(64)
        return measureDecoding(events) { event in
            decoder.process(event, into: &outputs)
            outputs.removeAll(keepingCapacity: true)
        }
    }

    private static func measureDecoding(_ events: [InputEvent], _ process: (InputEvent) -> Void)
        -> (events: Int, frames: Int, seconds: Double, allocationsPerFrame: Double)
    {
        // Warm up on the first tenth, so buffers reach their steady size; then count.
        let warm = events.count / 10
        for event in events[0..<warm] { process(event) }
        var frames = 0
        let allocationsBefore = Measure.allocations()
        let start = Measure.nanoseconds()
        for event in events[warm...] {
            process(event)
            if event.isSynReport { frames += 1 }
        }
        let seconds = Double(Measure.nanoseconds() - start) / 1e9
        let allocations = Measure.allocations() - allocationsBefore
        return (events.count - warm, frames, seconds, Double(allocations) / Double(max(frames, 1)))
    }
}

/// Benchmark 3: hit tests with the grid index against the plain scan.
enum HitTestBenchmark {
    struct Result {
        var regions: Int
        var gridP50: Double
        var gridP99: Double
        var scanP50: Double
        var scanP99: Double
    }

    static func run(regions: Int, queries: Int) -> Result {
        var factory = SceneFactory(seed: UInt64(regions))
        let index = SceneIndex(scene: factory.scene(count: regions, width: 1920, height: 1080))
        var points: [Point] = []
        for _ in 0..<queries { points.append(Point(x: factory.double(0...1919.9), y: factory.double(0...1079.9))) }
        // The cost of reading the clock, subtracted from each timing.
        var overheads: [Double] = []
        for _ in 0..<1000 {
            let a = Measure.nanoseconds()
            overheads.append(Double(Measure.nanoseconds() - a))
        }
        let overhead = Measure.percentile(overheads.sorted(), 50)
        func time(_ body: (Point) -> Int?) -> [Double] {
            var timings: [Double] = []
            timings.reserveCapacity(points.count)
            var sink = 0
            for point in points {
                let start = Measure.nanoseconds()
                sink &+= body(point) ?? -1
                timings.append(max(0, Double(Measure.nanoseconds() - start) - overhead))
            }
            if sink == Int.min { print(sink) }  // keeps the work from being optimised away
            return timings.sorted()
        }
        let grid = time { index.hitTest($0) }
        let scan = time { index.linearHitTest($0) }
        return Result(
            regions: regions, gridP50: Measure.percentile(grid, 50), gridP99: Measure.percentile(grid, 99),
            scanP50: Measure.percentile(scan, 50), scanP99: Measure.percentile(scan, 99))
    }
}
