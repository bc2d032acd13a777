import Testing
import TouchCore
import TouchEngine
import TouchWire

/// Who may connect: the connection limit with its reserved connections, and `clients.subscribeGroups`, decided
/// from the peer's credentials alone (docs/protocol.md, "Connecting").
@Suite("Engine: admission")
struct AdmissionTests {
    func goodbye(_ admission: Engine.Admission) -> WireLine? {
        guard case .refused(let bytes) = admission else { return nil }
        let lines = WireLine.split(bytes)
        return lines.count == 1 && bytes.last == UInt8(ascii: "\n") ? lines[0] : nil
    }

    /// Maximum 3 with 1 reserved: others may hold 2 connections in all; root and the scene group the third.
    @Test("past the limit less the reserved ones an ordinary user is refused; root and the scene group get the rest")
    func reservedConnections() throws {
        let harness = EngineHarness(settings: Fixtures.settings(maximum: 3, reserved: 1))
        let first = try harness.client(Fixtures.user)
        _ = try harness.client(Fixtures.user)
        let refused = try #require(goodbye(harness.connect(Fixtures.user)))
        #expect(refused.type == "goodbye")
        #expect(refused.string("code") == "too-many-clients")
        #expect(
            refused.string("message")
                == "the limit of 2 clients is reached (1 more are kept for root and the scene groups)")
        #expect(harness.engine.clientCount == 2)
        _ = try harness.client(Fixtures.sceneMember)  // the reserved one
        let full = try #require(goodbye(harness.connect(Fixtures.root)))
        #expect(full.string("code") == "too-many-clients")
        #expect(full.string("message") == "the limit of 3 clients is reached")
        // One ordinary client leaves: the count (2) is still at the ordinary limit, but root fits again.
        harness.connectionLost(first)
        #expect(goodbye(harness.connect(Fixtures.user))?.string("code") == "too-many-clients")
        _ = try harness.client(Fixtures.root)
        #expect(harness.engine.clientCount == 3)
    }

    @Test("a refused peer gets no client number, no socket effects and no status change")
    func refusalHasNoEffects() throws {
        let harness = EngineHarness(settings: Fixtures.settings(maximum: 1, reserved: 0))
        let admitted = try harness.client(Fixtures.user)
        let statuses = harness.statuses.count
        // With none reserved the message speaks of no reserved connections.
        #expect(goodbye(harness.connect(Fixtures.user))?.string("message") == "the limit of 1 clients is reached")
        #expect(harness.statuses.count == statuses)
        #expect(harness.closed.isEmpty)
        // Numbers are never reused nor spent on refusals: the next admitted client is the second.
        harness.connectionLost(admitted)
        #expect(try harness.client(Fixtures.user) == ClientID(admitted.rawValue + 1))
    }

    @Test("refusals are logged at most once a second, the ones held back counted in the next line")
    func refusalLogThrottled() throws {
        let harness = EngineHarness(settings: Fixtures.settings(maximum: 2, reserved: 1))
        _ = try harness.client(Fixtures.user)
        harness.connect(Fixtures.user)
        harness.setClock(Fixtures.ms(500))
        harness.connect(Fixtures.user)
        harness.connect(Fixtures.user)
        #expect(harness.logged("refused client").count == 1)
        harness.setClock(Fixtures.ms(1000))
        harness.connect(Fixtures.user)
        let lines = harness.logged("refused client")
        #expect(lines.count == 2)
        #expect(
            lines.last
                == "refused client pid 200 uid 1000: the limit of 1 clients is reached"
                + " (1 more are kept for root and the scene groups) (and 2 more refused since the last such line)")
        #expect(harness.logs.last?.severity == .notice)
    }

    @Test("refusals held back with no refusal after them are counted once their second is over, and only then")
    func heldBackRefusalsCountedAtIntervalEnd() throws {
        let harness = EngineHarness(settings: Fixtures.settings(maximum: 2, reserved: 1))
        _ = try harness.client(Fixtures.user)
        harness.setClock(Fixtures.ms(100))
        for _ in 0..<4 { harness.connect(Fixtures.user) }
        #expect(harness.logged("refused").count == 1)
        // The first refusal opened the window at 100 ms: the three after it are due to be counted at 1,100 ms.
        #expect(harness.engine.nextDeadline == Fixtures.ms(1100))
        harness.advance(to: Fixtures.ms(1099))
        #expect(harness.logged("not logged one by one").isEmpty)
        harness.advance(to: Fixtures.ms(1100))
        #expect(
            harness.logged("not logged one by one") == [
                "3 more client(s) refused in the last second, not logged one by one"
            ])
        #expect(harness.logs.last?.severity == .notice)
        // Counted once: nothing is due any more, and the next refusal starts afresh.
        #expect(harness.engine.nextDeadline != Fixtures.ms(1100))
        harness.setClock(Fixtures.ms(3000))
        harness.connect(Fixtures.user)
        #expect(harness.logged("refused client").last?.hasSuffix("since the last such line)") == false)
    }

    @Test("with subscribeGroups set only root and the groups' members may connect, and only root may change the scene")
    func subscribeGroups() throws {
        var settings = Fixtures.settings()
        settings.access.subscribeGroups = [Fixtures.subscribeGroup]
        settings.access.restrictsSubscribers = true
        let harness = EngineHarness(settings: settings)
        let refused = try #require(goodbye(harness.connect(Fixtures.user)))
        #expect(refused.string("code") == "permission-denied")
        #expect(refused.string("message") == "uid 1000 is not in the groups allowed to connect")
        // The scene group does not open the door by itself: it is not a subscribe group.
        #expect(goodbye(harness.connect(Fixtures.sceneMember))?.string("code") == "permission-denied")
        let member = try harness.client(Fixtures.subscribeMember)
        let memberHello = try #require(harness[member].take().first)
        #expect(memberHello["permissions"]?["subscribe"]?.bool == true)
        #expect(memberHello["permissions"]?["scene"]?.bool == false)
        let root = try harness.client(Fixtures.root)
        #expect(harness[root].take().first?["permissions"]?["scene"]?.bool == true)
    }
}
