import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchScene
import TouchTestKit
import TouchWire

/// What each client receives, however the engine reaches its queue: a line is encoded straight into the queue of
/// its first taker (`OutboundQueue.tail`), and the takers after it that select alike get a copy of it from there.
/// The answer is worked out apart from the engine's writers: every dispatched event (seen by the observer) encoded
/// by a new writer of its own, whose memo of printed numbers holds nothing from earlier lines.
@Suite("Engine: fan-out bytes, one subscriber or several")
struct FanOutBytesTests {
    /// An odd scene size (raw positions map to fractions with every ending), a region at the origin (local equals
    /// scene coordinates), a nested one, drags in both.
    static let sceneJSON = """
        {"size": [1021, 777], "regions": [
          {"id": "origin", "frame": [0, 0, 333, 777], "gestures": ["drag"]},
          {"id": "pad", "frame": [333, 11, 500, 600], "gestures": ["drag"], "children": [
            {"id": "inner", "frame": [17, 13, 101, 99], "gestures": ["drag"]}]}
        ]}
        """

    /// Up to five fingers at once, each lifted and put down again now and then (so finger ids pass 16 and 64,
    /// colliding in the memo's slots), moving in steps of every size across regions.
    static func script(frames: Int) -> [[InputEvent]] {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var trackingID: Int32 = 1
        var down = [Bool](repeating: false, count: 5)
        var position = [(Int32, Int32)](repeating: (0, 0), count: 5)
        let chunk = EventScript()
        var cuts = [0]
        for frame in 0..<frames {
            let slot = next(5)
            if !down[slot] {
                position[slot] = (Int32(next(4096)), Int32(next(4096)))
                chunk.down(slot: Int32(slot), id: trackingID, x: position[slot].0, y: position[slot].1)
                trackingID += 1
                down[slot] = true
            } else if next(12) == 0 {
                chunk.up(slot: Int32(slot))
                down[slot] = false
            } else {
                let step = next(3) == 0 ? 400 : 9
                position[slot].0 = max(0, min(4095, position[slot].0 + Int32(next(2 * step + 1) - step)))
                position[slot].1 = max(0, min(4095, position[slot].1 + Int32(next(2 * step + 1) - step)))
                chunk.move(slot: Int32(slot), x: position[slot].0, y: position[slot].1)
            }
            if frame % 10 == 9 { cuts.append(chunk.events.count) }
        }
        cuts.append(chunk.events.count)
        return zip(cuts, cuts.dropFirst()).map { Array(chunk.events[$0..<$1]) }
    }

    struct Client {
        var fields = ""
        /// Bytes the socket takes after each chunk of frames (nil: everything at once).
        var readsPerChunk: Int?
    }

    struct Outcome {
        var received: [[UInt8]]
        var finalBytes: [[UInt8]?]
        var expected: [UInt8]
        var slowLogs: [String]
    }

    /// Has the engine's observer print every dispatched event with a new writer of its own, and returns what it
    /// has printed so far whenever asked: the whole stream, worked out apart from the engine's writers.
    static func expectedStream(of harness: EngineHarness) -> () -> [UInt8] {
        final class Printed {
            var bytes: [UInt8] = []
        }
        let printed = Printed()
        harness.engine.output = EngineObserver { event in
            guard case .dispatched(let dispatched) = event else { return }
            var fresh = JSONWriter()
            DispatchEventEncoder.encode(dispatched, into: &fresh)
            printed.bytes += fresh.bytes
        }
        return { printed.bytes }
    }

    static func run(_ clients: [Client], queueBytes: Int = 1 << 20, frames: Int = 600) throws -> Outcome {
        let harness = EngineHarness(
            scene: Fixtures.scene(sceneJSON), settings: Fixtures.settings(queueBytes: queueBytes))
        let expected = expectedStream(of: harness)
        let device = try harness.addDevice()
        var ids: [ClientID] = []
        var starts: [Int] = []
        for client in clients {
            let id = try harness.client()
            try harness.subscribe(id, client.fields)
            ids.append(id)
        }
        for (index, client) in clients.enumerated() {
            starts.append(harness[ids[index]].received.count)
            if client.readsPerChunk != nil { harness[ids[index]].capacity = 0 }
        }
        for chunk in script(frames: frames) {
            harness.feed(chunk, from: device)
            for (index, client) in clients.enumerated() {
                guard let reads = client.readsPerChunk else { continue }
                harness[ids[index]].capacity = reads
            }
            harness.settle()
        }
        for id in ids { harness.startReading(id) }
        return Outcome(
            received: ids.indices.map { Array(harness[ids[$0]].received.dropFirst(starts[$0])) },
            finalBytes: ids.map { harness[$0].finalBytes },
            expected: expected(),
            slowLogs: harness.logs.map(\.message).filter { $0.contains("slow") || $0.contains("overflow") })
    }

    /// Equal bytes, or where they first differ (a failure prints that, not both arrays).
    static func same(_ one: [UInt8], _ other: [UInt8]) -> Bool {
        guard one != other else { return true }
        let at = (0..<min(one.count, other.count)).first { one[$0] != other[$0] } ?? min(one.count, other.count)
        let show = { (bytes: [UInt8]) in
            String(decoding: bytes[max(0, at - 120)..<min(bytes.count, at + 80)], as: UTF8.self)
        }
        print("differ at \(at) of \(one.count)/\(other.count):\n\(show(one))\n\(show(other))")
        return false
    }

    /// `part`'s whole lines are some of `whole`'s, in the same order (a client disconnected may have received
    /// part of a line last).
    static func isSubsequence(_ part: [UInt8], of whole: [UInt8]) -> Bool {
        let wholeLines = whole.split(separator: UInt8(ascii: "\n"))
        let complete = part[..<((part.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1)]
        var cursor = 0
        for line in complete.split(separator: UInt8(ascii: "\n")) {
            while cursor < wholeLines.count && wholeLines[cursor] != line { cursor += 1 }
            guard cursor < wholeLines.count else { return false }
            cursor += 1
        }
        return true
    }

    @Test("one subscriber to everything gets every line as a new writer prints it, reading at once or in short writes")
    func oneSubscriber() throws {
        for reads in [nil, 0, 1, 997, 3_001, 3_301, 8_192] as [Int?] {
            let outcome = try Self.run([Client(readsPerChunk: reads)])
            #expect(outcome.expected.count > 100_000)
            #expect(Self.same(outcome.received[0], outcome.expected), "reads \(String(describing: reads))")
        }
    }

    @Test("two and three subscribers, filtered or not, get the same bytes as the one")
    func severalSubscribers() throws {
        let outcome = try Self.run([
            Client(), Client(readsPerChunk: 1_500), Client(fields: #""events":["touch"]"#),
            Client(fields: #""regions":["inner"]"#),
        ])
        #expect(Self.same(outcome.received[0], outcome.expected))
        #expect(Self.same(outcome.received[1], outcome.expected))
        #expect(Self.isSubsequence(outcome.received[2], of: outcome.expected))
        #expect(Self.isSubsequence(outcome.received[3], of: outcome.expected))
        #expect(outcome.received[3].count > 1_000)
        let two = try Self.run([Client(), Client(readsPerChunk: 3_001)])
        #expect(Self.same(two.received[0], two.expected))
        #expect(Self.same(two.received[1], two.expected))
    }

    @Test(
        "a slow subscriber alone (written in place) fares as one beside a fast one (copied in)",
        arguments: [
            3_000, 20_000, 60_000, 400_000,
        ])
    func slowSubscriber(queueBytes: Int) throws {
        for reads in [0, 700] {
            let alone = try Self.run([Client(readsPerChunk: reads)], queueBytes: queueBytes)
            let beside = try Self.run([Client(readsPerChunk: reads), Client()], queueBytes: queueBytes)
            #expect(Self.same(alone.received[0], beside.received[0]), "limit \(queueBytes), reads \(reads)")
            #expect(Self.same(alone.finalBytes[0] ?? [], beside.finalBytes[0] ?? []), "limit \(queueBytes)")
            #expect((alone.finalBytes[0] == nil) == (beside.finalBytes[0] == nil))
            #expect(alone.slowLogs == beside.slowLogs)
            // The limits cover disconnection (3,000 to 60,000 unread), coalescing alone (60,000 read slowly) and
            // neither (400,000).
            #expect(alone.slowLogs.isEmpty == (queueBytes == 400_000))
            #expect(Self.same(beside.received[1], beside.expected))
            #expect(Self.isSubsequence(alone.received[0], of: alone.expected))
        }
    }
}
