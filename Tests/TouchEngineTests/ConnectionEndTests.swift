import Testing
import TouchCore
import TouchEngine
import TouchWire

/// How connections end from the client's side: end-of-file after requests (their replies are still delivered,
/// then the connection closes), a lost connection, and a write that fails (docs/protocol.md, "Slow clients").
@Suite("Engine: connections ending")
struct ConnectionEndTests {
    @Test("a client that sends three pings and shuts down its side gets the three replies, then is closed")
    func halfCloseGetsReplies() throws {
        let harness = EngineHarness()
        let client = try harness.client()
        harness[client].inbound = Array((1...3).map { #"{"op":"ping","id":\#($0)}"# + "\n" }.joined().utf8)
        harness.shutdownWrite(client)
        #expect(harness[client].lines.types == ["hello", "reply", "reply", "reply"])
        #expect(harness[client].lines.dropFirst().map(\.idSource) == ["1", "2", "3"])
        #expect(harness.closed == [client])
        #expect(harness[client].finalBytes == [])
        #expect(harness.logged("client \(client) disconnected: closed the connection").count == 1)
        #expect(harness.engine.clientCount == 0)
    }

    /// The engine keeps the client it last looked up by id (`Engine.connectedClient`): once that client is gone its
    /// id must reach nothing, while another client's id still reaches that client.
    @Test("a lost client's id, though last looked up, reaches nothing; another client's still reaches it")
    func lostClientIsForgotten() throws {
        let harness = EngineHarness()
        let lost = try harness.client()
        let other = try harness.client()
        harness.send(#"{"op":"ping","id":1}"#, from: lost)
        #expect(harness.engine.wantsInput(from: lost))
        harness.connectionLost(lost)
        #expect(!harness.engine.wantsInput(from: lost))
        harness.engine.receive(ArraySlice(#"{"op":"ping","id":2}"#.utf8 + [10]), from: lost, at: harness.now)
        harness.engine.inputEnded(from: lost, at: harness.now)
        var flushed = false
        harness.engine.flush(lost, at: harness.now) { raw in
            flushed = true
            return .wrote(raw.count)
        }
        #expect(!flushed)
        #expect(!harness.engine.hasEffects)
        #expect(harness.request(#"{"op":"ping","id":3}"#, from: other).map(\.idSource) == ["3"])
        #expect(harness.engine.clientCount == 1)
    }

    /// The half-closed client does not read at first: the connection must stay until its replies are out. With 3
    /// pings the end-of-file is read at once, while the replies wait; with 300 the replies pass half the queue,
    /// reading stops, and the end-of-file is read only once they drain.
    @Test("a half-closed client that reads late still gets every reply before the close", arguments: [3, 300])
    func halfCloseWaitsForReplies(pings: Int) throws {
        let harness = EngineHarness(settings: Fixtures.settings(queueBytes: 4096))
        let client = try harness.client(capacity: 0)
        harness[client].inbound = Array((1...pings).map { #"{"op":"ping","id":\#($0)}"# + "\n" }.joined().utf8)
        harness.shutdownWrite(client)
        harness.settle()
        #expect(harness[client].endOfFileRead == (pings == 3))
        #expect(!harness[client].isClosed)
        harness.startReading(client)
        let lines = harness[client].lines
        #expect(lines.count == pings + 1)
        #expect(lines.dropFirst().map(\.idSource) == (1...pings).map { String($0) })
        #expect(harness.closed == [client])
    }

    @Test("a lost connection is forgotten at once, subscription included, with the reason logged")
    func connectionLost() throws {
        let harness = EngineHarness()
        let client = try harness.client()
        try harness.subscribe(client)
        harness.connectionLost(client, reason: "reset by peer")
        #expect(harness.closed == [client])
        #expect(harness.engine.subscriberCount == 0)
        #expect(harness.logged("client \(client) disconnected: reset by peer").count == 1)
        // Late inputs for it are ignored.
        harness.engine.connectionLost(client, reason: "again", at: harness.now)
        harness.engine.inputEnded(from: client, at: harness.now)
        #expect(!harness.engine.hasEffects)
    }

    @Test("a write that fails closes the connection, and the other clients carry on")
    func failedWrite() throws {
        let harness = EngineHarness()
        let broken = try harness.client()
        let other = try harness.client()
        harness[broken].failsWrites = true
        harness.request(#"{"op":"ping","id":1}"#, from: broken)
        #expect(harness.closed == [broken])
        #expect(harness.logged("client \(broken) disconnected: the connection failed").count == 1)
        #expect(harness.request(#"{"op":"ping","id":2}"#, from: other).first?.idSource == "2")
        #expect(harness.engine.clientCount == 1)
    }

    @Test("each connect and disconnect updates the status line")
    func statusLine() throws {
        let harness = EngineHarness()
        _ = try harness.addDevice()
        let client = try harness.client()
        #expect(harness.statuses.last == "1 device(s), 1 client(s), scene version 1")
        harness.connectionLost(client)
        #expect(harness.statuses.last == "1 device(s), 0 client(s), scene version 1")
    }
}
