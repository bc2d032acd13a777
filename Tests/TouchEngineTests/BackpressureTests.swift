import Testing
import TouchCore
import TouchEngine
import TouchWire

/// A client that pipelines requests without reading: the engine stops taking its bytes (the adapter stops
/// watching it for readable) once its replies pass half the queue, and resumes when they drain; no reply is ever
/// dropped (docs/protocol.md, "Replies: backpressure").
@Suite("Engine: backpressure on requests")
struct BackpressureTests {
    static let pings = 1000

    func pipeline(_ harness: EngineHarness, _ client: ClientID) {
        let batch = (0..<Self.pings).map { #"{"op":"ping","id":\#($0)}"# + "\n" }.joined()
        harness.sendBytes(Array(batch.utf8), from: client)
    }

    @Test("1,000 pipelined pings to a client that does not read: reading stops, then resumes and all are answered")
    func stopsAndResumes() throws {
        let harness = EngineHarness(settings: Fixtures.settings(queueBytes: 4096))
        harness.readChunk = 1024
        let client = try harness.client()
        #expect(harness[client].take().types == ["hello"])
        harness[client].capacity = 0
        pipeline(harness, client)

        // Stopped: the engine wants no input, the socket is watched for writable only, and most of what the
        // client sent is still unread in the socket.
        #expect(!harness.engine.wantsInput(from: client))
        #expect(harness[client].interest == .writable)
        #expect(harness[client].watches.contains(.writable))
        let unread = harness[client].inbound.count
        #expect(unread > 15_000)  // of about 22,000 bytes
        let offered = try #require(harness[client].writes.last)
        // A socket event that is not readable does not make the adapter read.
        harness.serve(client)
        #expect(harness[client].inbound.count == unread)

        // A few bytes read by the client are not enough to resume.
        harness[client].capacity = 10
        harness.serve(client)
        #expect(!harness.engine.wantsInput(from: client))

        harness.startReading(client)
        let replies = harness[client].take()
        #expect(replies.count == Self.pings)
        // The replies that waited were bounded by backpressure: the one that took the queue past half was last.
        let longest = replies.map { $0.text.utf8.count + 1 }.max() ?? 0
        #expect(offered > 2048 && offered <= 2048 + longest)
        #expect(replies.map(\.idSource) == (0..<Self.pings).map { String($0) })
        #expect(replies.allSatisfy { $0.bool("pong") == true })
        #expect(harness[client].inbound.isEmpty)
        #expect(harness.engine.wantsInput(from: client))
        #expect(harness[client].interest == .readable)
        #expect(!harness[client].isClosed)
        #expect(harness.logged("disconnected").isEmpty)
    }

    /// The adapter reads 64 KiB at a time, so all 1,000 pings (about 22 kB) arrive in one read: the engine must
    /// hold the ones it has read unanswered once the replies are past half the queue, not answer them all.
    @Test("requests read in one go wait unanswered while the replies queued are past half the queue")
    func requestsReadWaitUnanswered() throws {
        let harness = EngineHarness(settings: Fixtures.settings(queueBytes: 4096))
        let client = try harness.client()
        _ = harness[client].take()
        harness[client].capacity = 0
        pipeline(harness, client)
        #expect(harness[client].inbound.isEmpty)  // all read by the adapter
        #expect(!harness.engine.wantsInput(from: client))
        let offered = try #require(harness[client].writes.last)
        harness.startReading(client)
        let replies = harness[client].take()
        let longest = replies.map { $0.text.utf8.count + 1 }.max() ?? 0
        #expect(offered > 2048 && offered <= 2048 + longest)
        #expect(replies.map(\.idSource) == (0..<Self.pings).map { String($0) })
    }

    /// Replies do not count towards the queue limit: a client whose replies alone are past the limit is slowed,
    /// never disconnected, however many it asks for.
    @Test("replies far past the queue limit are never dropped and never overflow")
    func repliesNeverOverflow() throws {
        let harness = EngineHarness(settings: Fixtures.settings(queueBytes: 1024))
        let client = try harness.client()
        _ = harness[client].take()
        // The client reads 700 bytes per turn of the loop: its replies trickle out while it keeps sending.
        harness[client].capacity = 0
        pipeline(harness, client)
        var turns = 0
        while !harness[client].inbound.isEmpty || harness[client].interest.contains(.writable) {
            turns += 1
            try #require(turns < 10_000)
            harness[client].capacity = 700
            harness.serve(client)
            harness.fireTimerIfDueNow()
        }
        let replies = harness[client].take()
        #expect(replies.map(\.idSource) == (0..<Self.pings).map { String($0) })
        #expect(!harness[client].isClosed)
    }
}
