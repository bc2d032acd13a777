import Testing
import TouchCore
import TouchEngine
import TouchTestKit
import TouchWire

/// Idle and stalled connections are closed on virtual time, at the deadline `nextDeadline` announces
/// (docs/protocol.md: idle after `clients.idleTimeoutSeconds` of silence from connecting; stalled when replies
/// waited a whole timeout without the client reading any). The timeout here is the default, 30 s.
@Suite("Engine: idle and stalled connections")
struct HousekeepingTests {
    @Test("a connection that asks nothing is closed with an idle goodbye at exactly connect + 30 s, not before")
    func idleClosedAtDeadline() throws {
        let harness = EngineHarness(at: Fixtures.seconds(10))
        let idle = try harness.client()
        #expect(harness.engine.nextDeadline == Fixtures.seconds(40))
        harness.advance(to: EventTime(microseconds: 39_999_999))
        #expect(!harness[idle].isClosed)
        harness.advance(to: Fixtures.seconds(40))
        #expect(harness.closed == [idle])
        let final = harness[idle].finalLines
        #expect(
            final.map(\.text) == [#"{"type":"goodbye","code":"idle","message":"no request in 30 s after connecting"}"#])
        #expect(harness[idle].lines.types == ["hello", "goodbye"])
        #expect(harness.logged("client \(idle) disconnected: idle: no request in 30 s").count == 1)
        #expect(harness.engine.clientCount == 0)
        #expect(harness.engine.nextDeadline == nil)
    }

    @Test("an idle client that never read its hello gets hello and goodbye together in the final bytes")
    func idleUnreadHello() throws {
        let harness = EngineHarness()
        let idle = try harness.client(capacity: 0)
        harness.runTimers(until: Fixtures.seconds(30))
        #expect(harness[idle].finalLines.types == ["hello", "goodbye"])
    }

    @Test("a request or a subscription keeps a connection from being idle; the next idle deadline is the other's")
    func activityKeepsConnection() throws {
        let harness = EngineHarness()
        let pinger = try harness.client()
        harness.setClock(Fixtures.seconds(5))
        let subscriber = try harness.client()
        harness.setClock(Fixtures.seconds(10))
        let idle = try harness.client()
        harness.setClock(Fixtures.seconds(20))
        harness.request(#"{"op":"ping"}"#, from: pinger)
        try harness.subscribe(subscriber)
        // The armed deadline (the first connection's) passes: nobody is idle yet; the next is the third's.
        harness.runTimers(until: Fixtures.seconds(30))
        #expect(harness.closed.isEmpty)
        #expect(harness.engine.nextDeadline == Fixtures.seconds(40))
        harness.runTimers(until: Fixtures.seconds(100))
        #expect(harness.closed == [idle])
        #expect(harness.engine.nextDeadline == nil)
    }

    /// What is queued first for a client that has stopped reading: each goes into its queue by another path.
    enum FirstWaiting: CaseIterable, Sendable {
        case replies, touch, deviceNotice
    }

    /// The client reads everything until 1 s, then nothing from 50 s on, when the first line of the second
    /// wave is queued for it (a touch, a device notice, or just the replies) and it pipelines 500 pings. Its
    /// lines wait from 50 s, so it is closed at 80 s. (The engine used to count from the last time the queue
    /// drained, 1 s: the deadline, 31 s, was already past, and the client was closed at once.)
    @Test(
        "a client whose replies wait unread is closed a whole timeout after it stopped reading, not before",
        arguments: FirstWaiting.allCases)
    func stalledClosedAfterTimeout(firstWaiting: FirstWaiting) throws {
        let harness = EngineHarness(settings: Fixtures.settings(queueBytes: 4096))
        let device = try harness.addDevice()
        let client = try harness.client()
        try harness.subscribe(client)
        harness.setClock(Fixtures.seconds(1))
        harness.request(#"{"op":"ping","id":0}"#, from: client)
        harness.runTimers(until: Fixtures.seconds(50))
        harness[client].capacity = 0
        switch firstWaiting {
        case .replies: break
        case .touch: harness.feed(EventScript(start: Fixtures.seconds(50)).down(id: 1, x: 40, y: 40), from: device)
        case .deviceNotice: _ = try harness.addDevice(Fixtures.touchscreen(key: "event9"))
        }
        let batch = (1...500).map { #"{"op":"ping","id":\#($0)}"# + "\n" }.joined()
        harness.sendBytes(Array(batch.utf8), from: client)
        #expect(!harness.engine.wantsInput(from: client))
        #expect(harness.engine.nextDeadline == Fixtures.seconds(80))
        harness.runTimers(until: EventTime(microseconds: 79_999_999))
        #expect(!harness[client].isClosed)
        harness.runTimers(until: Fixtures.seconds(80))
        #expect(harness.closed == [client])
        #expect(harness.logged("client \(client) disconnected: did not read its replies for 30 s").count == 1)
    }

    /// A client that sends its requests, shuts down its sending side and never reads holds a slot only a timeout:
    /// its replies are under the backpressure mark, so only the ended input marks it as not reading.
    @Test("a half-closed client that never reads its few replies is closed a timeout after they began to wait")
    func halfClosedNonReaderClosed() throws {
        let harness = EngineHarness(settings: Fixtures.settings(queueBytes: 1 << 20))
        let client = try harness.client()
        harness.setClock(Fixtures.seconds(2))
        harness[client].capacity = 0
        harness.send(#"{"op":"ping","id":1}"#, from: client)
        harness.shutdownWrite(client)
        #expect(harness.engine.nextDeadline == Fixtures.seconds(32))
        harness.runTimers(until: EventTime(microseconds: 31_999_999))
        #expect(!harness[client].isClosed)
        harness.runTimers(until: Fixtures.seconds(32))
        #expect(harness.closed == [client])
    }

    /// The stall clock restarts whenever the client reads something: reading a little every 20 s keeps it;
    /// once it stops (at 200 s) it has 30 s.
    @Test("a client that reads a little within every timeout is not stalled, however far behind it is")
    func slowReaderIsNotStalled() throws {
        let harness = EngineHarness(settings: Fixtures.settings(queueBytes: 4096))
        let client = try harness.client()
        harness[client].capacity = 0
        let batch = (1...500).map { #"{"op":"ping","id":\#($0)}"# + "\n" }.joined()
        harness.sendBytes(Array(batch.utf8), from: client)
        for second in stride(from: Int64(20), through: 200, by: 20) {
            harness.runTimers(until: Fixtures.seconds(second))
            harness[client].capacity = 100
            harness.serve(client)
            // Worked out afresh from the clients: exactly a timeout after it last read, never a stale earlier one.
            #expect(harness.engine.nextDeadline == Fixtures.seconds(second + 30))
        }
        #expect(harness.closed.isEmpty)
        harness.runTimers(until: EventTime(microseconds: 229_999_999))
        #expect(harness.closed.isEmpty)
        harness.runTimers(until: Fixtures.seconds(230))
        #expect(harness.closed == [client])
    }
}
