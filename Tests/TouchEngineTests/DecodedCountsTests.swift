import Testing
import TouchCore
import TouchEngine
import TouchScene
import TouchTestKit

/// An output of dispatched events alone (`EngineOutput.takesDecoded` off) gets no decoded outputs: the engine
/// counts them itself. The counts must be those an observer of every
/// decoded output would make, and nothing dispatched may change.
@Suite("Engine: decoded outputs counted for an observer of dispatched events")
struct DecodedCountsTests {
    struct Run {
        var lines: [String] = []
        var dispatched: [DispatchEvent] = []
        var counts = DecodedCounts()
    }

    func run(observesDecoded: Bool) throws -> Run {
        let harness = EngineHarness(scene: Fixtures.scene(Fixtures.gestureSceneJSON))
        var result = Run()
        harness.engine.output = EngineObserver(takesDecoded: observesDecoded) { event in
            switch event {
            case .decoded(let output, _, let live):
                // Counted here from the observer's own view, as `touchd replay` counted before the engine did.
                switch output {
                case .finger(let mapped):
                    switch mapped.event.phase {
                    case .down: result.counts.downs += 1
                    case .move: result.counts.moves += 1
                    case .up: result.counts.ups += 1
                    case .cancel: result.counts.cancels += 1
                    }
                    result.counts.maxLiveFingers = max(result.counts.maxLiveFingers, live)
                case .frameEnd: result.counts.frameEnds += 1
                }
            case .dispatched(let event): result.dispatched.append(event)
            }
        }
        result.lines = try DirectDispatchTests.play(harness)
        if !observesDecoded {
            #expect(result.counts == DecodedCounts(), "the observer saw a decoded output")
            result.counts = harness.engine.decodedCounts
        } else {
            #expect(harness.engine.decodedCounts == DecodedCounts())
        }
        return result
    }

    @Test("the engine's counts are the observer's, and subscribers and the observer see the same events")
    func sameCounts() throws {
        let counted = try run(observesDecoded: false)
        let observed = try run(observesDecoded: true)
        #expect(counted.counts == observed.counts)
        #expect(counted.lines == observed.lines)
        #expect(counted.dispatched == observed.dispatched)
        // The script's four touches; two down at once; the one left down at the end cancelled.
        #expect(counted.counts.downs == 4)
        #expect(counted.counts.maxLiveFingers == 2)
        #expect(counted.counts.cancels == 1)
        #expect(counted.counts.ups == 3)
        #expect(counted.counts.moves > 0)
        #expect(counted.counts.frameEnds > 10)
    }

    @Test("without a dispatcher the observer still gets every decoded output")
    func withoutDispatcher() throws {
        var settings = Fixtures.settings()
        settings.dispatches = false
        let harness = EngineHarness(scene: Fixtures.scene(Fixtures.gestureSceneJSON), settings: settings)
        var decoded = 0
        harness.engine.output = EngineObserver(takesDecoded: false) { event in
            if case .decoded = event { decoded += 1 }
        }
        let device = try harness.addDevice(Fixtures.touchscreen(filter: .standard))
        harness.feed(DirectDispatchTests.events, from: device)
        harness.endOfStream(device)
        #expect(decoded > 20)
        #expect(harness.engine.decodedCounts == DecodedCounts())
    }

    @Test("a device with a virtual touchscreen is counted as one without")
    func countedWhileForwarding() throws {
        let plain = try run(observesDecoded: false)
        let harness = EngineHarness(scene: Fixtures.scene(Fixtures.gestureSceneJSON))
        harness.engine.output = EngineObserver(takesDecoded: false) { _ in }
        var spec = Fixtures.touchscreen(filter: .standard)
        spec.virtualTouchscreen = VirtualTouchscreen.description(for: spec.description)
        let device = try harness.addDevice(spec)
        harness.feed(DirectDispatchTests.events, from: device)
        harness.endOfStream(device)
        #expect(harness.engine.decodedCounts == plain.counts)
        #expect(harness.engine.decodedCounts.downs == 4)
    }
}
