import Testing
import TouchCore
import TouchEngine
import TouchTestKit
import TouchWire

/// A subscriber whose socket takes nothing, beside one that reads everything (docs/protocol.md, "Slow clients":
/// coalescing, then disconnection; other clients never affected). The slow client's fate is checked against the
/// documented policy applied by hand to the lines the fast client received, which are the same lines.
@Suite("Engine: slow subscribers")
struct SlowClientTests {
    /// A down on the button, `moves` moves 10 scene units apart, then the lift: a frame after each.
    func drag(moves: Int) -> EventScript {
        let script = EventScript()
        script.down(id: 1, x: 800, y: 1000)
        for step in 1...moves { script.move(x: 800 + Int32(step) * 40, y: 1000) }
        script.up()
        return script
    }

    /// Bytes on the wire of some lines (each with its newline).
    func bytes(_ lines: [WireLine]) -> Int { lines.reduce(0) { $0 + $1.text.utf8.count + 1 } }

    /// The lines the drag sends to a subscriber to everything, from an engine whose queues never fill.
    func calibrationLines(moves: Int) throws -> [WireLine] {
        let harness = EngineHarness()
        let device = try harness.addDevice()
        let client = try harness.client()
        try harness.subscribe(client)
        harness.feed(drag(moves: moves), from: device)
        return harness[client].take()
    }

    /// The queue limit is set one byte below the drag's whole output, so the limit is crossed exactly once, by
    /// the last line: then every queued move but the newest goes, and what is left fits.
    @Test("past the limit only the newest move of a finger is kept, downs, ups and frames all are; nothing else")
    func coalescesToNewestMove() throws {
        let expected = try calibrationLines(moves: 20)
        let limit = bytes(expected) - 1
        let harness = EngineHarness(settings: Fixtures.settings(queueBytes: limit))
        let device = try harness.addDevice()
        let slow = try harness.client()
        try harness.subscribe(slow)
        let fast = try harness.client()
        try harness.subscribe(fast)
        harness[slow].capacity = 0
        harness.feed(drag(moves: 20), from: device)

        #expect(harness[fast].take().map(\.text) == expected.map(\.text))
        #expect(!harness[slow].isClosed)
        #expect(harness.logged("client \(slow) is slow: 19 superseded lines dropped").count == 1)
        #expect(harness.logs.first { $0.message.contains("is slow") }?.severity == .debug)
        harness.startReading(slow)
        let lastMove = expected.lastIndex { $0.type == "move" }!
        let kept = expected.enumerated().filter { $0.element.type != "move" || $0.offset == lastMove }
        #expect(harness[slow].take().map(\.text) == kept.map(\.element.text))
    }

    /// The documented policy, by hand: when queued events pass the limit, superseded moves go; if the events
    /// left (every essential line and the newest move) are still over it, the client is disconnected. Returns
    /// the index of the line that overflows.
    func overflowIndex(of lines: [WireLine], limit: Int) -> Int? {
        var essential = 0
        var newestMove = 0
        var queued = 0
        for (index, line) in lines.enumerated() {
            let size = line.text.utf8.count + 1
            queued += size
            if line.type == "move" { newestMove = size } else { essential += size }
            if queued > limit {
                queued = essential + newestMove
                if queued > limit { return index }
            }
        }
        return nil
    }

    @Test("a subscriber that never reads is closed for overflow at the line the policy says; the other gets all")
    func overflowClosesOnlyTheSlowOne() throws {
        let limit = 4096
        let moves = 150
        let expected = try calibrationLines(moves: moves)
        let overflowAt = try #require(overflowIndex(of: expected, limit: limit))
        let harness = EngineHarness(settings: Fixtures.settings(queueBytes: limit))
        let device = try harness.addDevice()
        let slow = try harness.client()
        try harness.subscribe(slow)
        let fast = try harness.client()
        try harness.subscribe(fast)
        harness[slow].capacity = 0

        // One frame at a time: note how many lines the fast client had when the slow one was closed.
        var fastLines: [WireLine] = []
        var linesAtClose: (before: Int, after: Int)?
        var frame: [InputEvent] = []
        for event in drag(moves: moves).events {
            frame.append(event)
            guard event.type == EventType.syn && event.code == SynCode.report else { continue }
            let before = fastLines.count
            let wasOpen = !harness[slow].isClosed
            harness.feed(frame, from: device)
            frame.removeAll()
            fastLines += harness[fast].take()
            if wasOpen && harness[slow].isClosed { linesAtClose = (before, fastLines.count) }
        }
        let close = try #require(linesAtClose)
        #expect(close.before <= overflowAt && overflowAt < close.after)
        #expect(harness[slow].finalBytes == [])
        #expect(harness[slow].lines.types == ["hello", "reply"])  // read before it stopped; no event ever left
        #expect(
            harness.logged("client \(slow) disconnected: did not read: its queue of 4096 bytes overflowed").count == 1)
        #expect(harness.engine.subscriberCount == 1)
        #expect(fastLines.map(\.text) == expected.map(\.text))
        #expect(fastLines.ofType("move").count == moves)
    }

    @Test("a flush hands everything queued to one write call, and the rest again in one after a short write")
    func oneWritePerFlush() throws {
        let harness = EngineHarness()
        let device = try harness.addDevice()
        let client = try harness.client()
        try harness.subscribe(client)
        harness[client].capacity = 0
        harness.feed(drag(moves: 30), from: device)
        let queued = try #require(harness[client].writes.last)  // offered in full, taken 0
        #expect(queued > 30 * 200)
        let writes = harness[client].writes.count
        harness[client].capacity = 100
        harness.flush(harness[client].id)
        #expect(harness[client].writes.count == writes + 1)
        #expect(harness[client].writes.last == queued)
        harness[client].capacity = nil
        harness.flush(harness[client].id)
        #expect(harness[client].writes.count == writes + 2)
        #expect(harness[client].writes.last == queued - 100)
        // Everything arrived, in order: 30 moves, nothing coalesced (the queue never reached 1 MiB).
        #expect(harness[client].take().ofType("move").count == 30)
    }
}
