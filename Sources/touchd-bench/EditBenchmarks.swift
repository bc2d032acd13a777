import TouchCore
import TouchEngine
import TouchScene
import TouchWire

/// What one client's requests cost the engine's thread, in process: the time each request's handling takes
/// (receive, effects, flush), which is the time the daemon's loop serves no device while it runs.
enum EditBenchmarks {
    struct Costs {
        var requests: Int
        var meanMicroseconds: Double
        var maxMicroseconds: Double
        /// The longest time one entry into the engine took while the requests were pipelined (all sent at once,
        /// as the daemon reads them: up to a megabyte a turn).
        var pipelinedTurnMaxMicroseconds: Double
    }

    /// `lines` handled one at a time, then all at once as one pipelined read, on a scene of `regions` regions.
    static func run(regions: Int, lines: [[UInt8]], credentials: PeerCredentials) -> Costs {
        var factory = SceneFactory(seed: 7)
        let scene = factory.scene(count: regions, width: 1920, height: 1080)
        let costs = oneAtATime(scene: scene, lines: lines, credentials: credentials)
        let pipelined = pipelinedTurns(scene: scene, lines: lines, credentials: credentials)
        return Costs(
            requests: lines.count, meanMicroseconds: costs.reduce(0, +) / Double(max(costs.count, 1)),
            maxMicroseconds: costs.max() ?? 0, pipelinedTurnMaxMicroseconds: pipelined)
    }

    private static func oneAtATime(scene: Scene, lines: [[UInt8]], credentials: PeerCredentials) -> [Double] {
        let engine = Engine(scene: scene)
        guard case .admitted(let id) = engine.connect(credentials, at: .zero) else { fail("the client was refused") }
        var effects: [EngineEffect] = []
        drain(engine, &effects)
        var costs: [Double] = []
        for line in lines {
            let start = Measure.nanoseconds()
            engine.receive(line[...], from: id, at: .zero)
            drain(engine, &effects)
            costs.append(Double(Measure.nanoseconds() - start) / 1000)
        }
        return costs
    }

    /// Every line in reads of at most 1 MiB, as the daemon reads; each engine entry (a receive, or a flush that
    /// serves waiting requests) timed alone.
    private static func pipelinedTurns(scene: Scene, lines: [[UInt8]], credentials: PeerCredentials) -> Double {
        let engine = Engine(scene: scene)
        guard case .admitted(let id) = engine.connect(credentials, at: .zero) else { fail("the client was refused") }
        var effects: [EngineEffect] = []
        drain(engine, &effects)
        let all = lines.flatMap { $0 }
        var longest = 0.0
        var offset = 0
        while offset < all.count {
            let end = min(offset + (1 << 20), all.count)
            let start = Measure.nanoseconds()
            engine.receive(all[offset..<end], from: id, at: .zero)
            longest = max(longest, Double(Measure.nanoseconds() - start) / 1000)
            offset = end
            longest = max(longest, drain(engine, &effects))
        }
        // The daemon's timer: deferred requests are resumed on the next turn.
        for _ in 0..<1_000_000 where engine.hasPendingRequests(of: id) {
            let start = Measure.nanoseconds()
            engine.advance(to: .zero)
            longest = max(longest, Double(Measure.nanoseconds() - start) / 1000)
            longest = max(longest, drain(engine, &effects))
        }
        return longest
    }

    /// Applies effects as the daemon's pump does, flushing into nowhere; the longest single engine call.
    @discardableResult
    private static func drain(_ engine: Engine, _ effects: inout [EngineEffect]) -> Double {
        var longest = 0.0
        repeat {
            engine.takeEffects(into: &effects)
            for effect in effects {
                guard case .flush(let id) = effect else { continue }
                let start = Measure.nanoseconds()
                engine.flush(id, at: .zero) { .wrote($0.count) }
                longest = max(longest, Double(Measure.nanoseconds() - start) / 1000)
            }
        } while engine.hasEffects
        return longest
    }

    static func updateLines(regions: Int, count: Int) -> [[UInt8]] {
        (0..<count).map { index in
            let region = "r\(index % regions + 1)"
            return Array(#"{"op":"update-region","region":"\#(region)","set":{"z":\#(index % 7)}}"#.utf8) + [10]
        }
    }

    /// A set-scene of `taps` tap gestures on one region: about 230 kB at 6,000.
    static func bigSetScene(taps: Int) -> [UInt8] {
        var text =
            #"{"op":"set-scene","scene":{"size":[1280,800],"regions":[{"id":"big","frame":[0,0,1280,800],"gestures":["#
        text += (0..<taps).map { #"{"type":"tap","name":"t\#($0)"}"# }.joined(separator: ",")
        text += "]}]}}\n"
        return Array(text.utf8)
    }
}
