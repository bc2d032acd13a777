import Testing
import TouchCore
import TouchScene
import TouchWire

@testable import TouchEngine

@Suite("Log throttle")
struct LogThrottleTests {
    @Test("one line a second; the lines held back are counted in the next one")
    func throttle() {
        var throttle = LogThrottle(intervalMicroseconds: 1_000_000)
        #expect(throttle.admit(at: 0) == (true, 0))
        for t in stride(from: Int64(1000), to: 1_000_000, by: 100_000) { #expect(throttle.admit(at: t) == (false, 0)) }
        #expect(throttle.admit(at: 1_000_000) == (true, 10))
        #expect(throttle.admit(at: 1_500_000) == (false, 0))
        #expect(throttle.admit(at: 5_000_000) == (true, 1))
    }

    @Test("a burst of three a second: the fourth within the second is held back and counted in the next window")
    func burst() {
        var throttle = LogThrottle(intervalMicroseconds: 1_000_000, burst: 3)
        for t in [Int64(0), 10, 20] { #expect(throttle.admit(at: t) == (true, 0)) }
        #expect(throttle.admit(at: 30) == (false, 0))
        #expect(throttle.admit(at: 999_999) == (false, 0))
        #expect(throttle.admit(at: 1_000_000) == (true, 2))
        #expect(throttle.admit(at: 1_000_001) == (true, 0))
    }

    /// An attack: any user who may connect made two log lines per connect-and-close, 40,000 lines in 1.2 s.
    @Test("1,000 connect-and-close cycles in one second log 100 lines, and the next second says how many were held")
    func connectionStorm() throws {
        let harness = EngineHarness()
        for index in 0..<1000 {
            harness.setClock(EventTime(microseconds: Int64(index) * 900))
            harness.connectionLost(try harness.client())
        }
        #expect(harness.logs.filter { $0.message.hasPrefix("client ") }.count == 100)
        harness.setClock(Fixtures.seconds(2))
        _ = try harness.client()
        let last = try #require(harness.logs.last?.message)
        #expect(last.hasSuffix("(1900 connection lines held back before this one)"))
    }

    @Test("times at Int64's ends: the span between two refusals saturates instead of trapping")
    func extremeTimes() {
        var throttle = LogThrottle(intervalMicroseconds: 1_000_000)
        #expect(throttle.admit(at: .min) == (true, 0))
        #expect(throttle.admit(at: .max) == (true, 0))
        #expect(throttle.admit(at: .min) == (false, 0))
    }

    /// The engine fuzz target's find: two refused connections, at the start and at the end of time.
    @Test("an engine refusing connections at EventTime.min and then at .max does not trap")
    func refusalsAtTheEndsOfTime() throws {
        var settings = Engine.Settings()
        settings.access = ClientAccess(
            subscribeGroups: [50], restrictsSubscribers: true, sceneGroups: [], maximum: 4, reserved: 0)
        let scene = try SceneLoader.parse(#"{"version": 1, "size": [10, 10], "regions": []}"#, file: "test")
        let engine = Engine(scene: scene, settings: settings)
        let stranger = PeerCredentials(pid: 1, uid: 65534, gid: 65534, groups: [])
        for time in [EventTime.min, .max, .min] {
            guard case .refused = engine.connect(stranger, at: time) else {
                Issue.record("a peer outside the groups was admitted")
                return
            }
        }
        let logged = engine.takeEffects().filter {
            if case .log(_, let message) = $0 { message.hasPrefix("refused") } else { false }
        }
        #expect(logged.count == 2)
    }

    /// At the end of time a held-back line's deadline (its interval's end) saturates to now: lines that closing
    /// idle clients held back must be counted in the same wake-up, or the engine asks for that past deadline forever.
    @Test("idle clients that connected at EventTime.max are closed, and every held-back line is counted at once")
    func idleClosesAtTheEndOfTime() throws {
        let harness = EngineHarness(settings: Fixtures.settings(maximum: 100, reserved: 0), at: .max)
        let clients = try (0..<60).map { _ in try harness.client() }
        harness.advance(to: .max)  // one wake-up: nothing may be left due then (the engine fuzz target's rule)
        #expect(harness.closed.sorted() == clients.sorted())
        #expect(harness.engine.nextDeadline == nil)
        // 100 lines a second: the 60 connects and the first 40 closes are logged, the last 20 closes counted.
        let counted = harness.logs.compactMap { line -> Int? in
            guard line.message.hasSuffix("connection lines held back in the last second") else { return nil }
            return Int(line.message.prefix { $0 != " " })
        }
        #expect(counted == [20])
    }
}
