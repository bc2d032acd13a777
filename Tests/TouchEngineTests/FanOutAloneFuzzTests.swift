import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchScene
import TouchTestKit
import TouchWire

/// What a client receives depends on its own subscription and its own reading alone: among clients of every other
/// selection, filter and pace (some that never read and overflow while they hold the line the others copy), each
/// gets byte for byte what it gets as the only client.
@Suite("Engine: fan-out among others equals alone (random mixes)")
struct FanOutAloneFuzzTests {
    typealias Client = FanOutBytesTests.Client

    static let subscriptions = [
        "", #""fields":[]"#, #""fields":["region"]"#, #""fields":["vx"]"#, #""fields":["dx","dy","since_down_us"]"#,
        #""fields":["since_down_us","dy","dx"]"#, #""events":["touch"],"fields":["raw_x","raw_y"]"#,
        #""events":["gesture","frame"]"#, #""events":["region"]"#, #""regions":["pad"]"#,
        #""regions":["inner"],"fields":["dx","dy","vx","vy"]"#, #""regions":["pad"],"unassigned":true,"fields":[]"#,
        #""devices":["nothing"]"#, #""events":["touch","gesture"],"fields":["local_x","prev_y","taps"]"#,
    ]
    static let paces: [Int?] = [nil, nil, nil, 0, 700, 3_001]

    @Test("random mixes of subscribers", arguments: 0..<60)
    func mix(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &+ 1_000)
        func next(_ bound: Int) -> Int { random.below(bound) }
        let count = 2 + next(7)
        let clients = (0..<count).map { _ in
            Client(fields: Self.subscriptions[next(Self.subscriptions.count)], readsPerChunk: Self.paces[next(6)])
        }
        let queueBytes = [3_000, 20_000, 60_000, 1 << 20][next(4)]
        let together = try FanOutBytesTests.run(clients, queueBytes: queueBytes, frames: 500)
        for (index, client) in clients.enumerated() {
            let alone = try FanOutBytesTests.run([client], queueBytes: queueBytes, frames: 500)
            let same = FanOutBytesTests.same(alone.received[0], together.received[index])
            #expect(
                same,
                "seed \(seed), client \(index) of \(count): \(client.fields) \(String(describing: client.readsPerChunk)), limit \(queueBytes)"
            )
            #expect(alone.finalBytes[0] == together.finalBytes[index], "seed \(seed), client \(index)")
        }
    }
}

extension FanOutAloneFuzzTests {
    /// One client's part in a run: its subscriptions over time (index of `subscriptions`, or -1 for unsubscribe,
    /// by chunk), its pace, and the chunk after which it hangs up (nil: never).
    struct Plan {
        var changes: [Int: Int]
        var first: Int
        var reads: Int?
        var hangsUpAfter: Int?
    }

    static func run(_ plans: [Plan], queueBytes: Int, chunks: [[InputEvent]]) throws -> [[UInt8]] {
        let harness = EngineHarness(
            scene: Fixtures.scene(FanOutBytesTests.sceneJSON), settings: Fixtures.settings(queueBytes: queueBytes))
        let device = try harness.addDevice()
        var ids: [ClientID] = []
        for plan in plans {
            let id = try harness.client()
            harness.send(
                #"{"op":"subscribe","id":"s"\#(plan.first >= 0 && !subscriptions[plan.first].isEmpty ? "," + subscriptions[plan.first] : "")}"#,
                from: id)
            ids.append(id)
        }
        harness.settle()
        for (index, plan) in plans.enumerated() where plan.reads != nil { harness[ids[index]].capacity = 0 }
        for (number, chunk) in chunks.enumerated() {
            harness.feed(chunk, from: device)
            for (index, plan) in plans.enumerated() {
                if plan.hangsUpAfter == number { harness.connectionLost(ids[index]) }
                if let change = plan.changes[number], !harness[ids[index]].isClosed {
                    if change < 0 {
                        harness.send(#"{"op":"unsubscribe","id":\#(number)}"#, from: ids[index])
                    } else {
                        let fields = subscriptions[change]
                        harness.send(
                            #"{"op":"subscribe","id":\#(number)\#(fields.isEmpty ? "" : "," + fields)}"#,
                            from: ids[index])
                    }
                }
                if let reads = plan.reads, !harness[ids[index]].isClosed { harness[ids[index]].capacity = reads }
            }
            harness.settle()
        }
        for id in ids where !harness[id].isClosed { harness.startReading(id) }
        return ids.map { harness[$0].received + (harness[$0].finalBytes ?? []) }
    }

    @Test("random mixes that subscribe again, unsubscribe and hang up on the way", arguments: 0..<60)
    func changing(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &+ 99_000)
        func next(_ bound: Int) -> Int { random.below(bound) }
        let chunks = FanOutBytesTests.script(frames: 400)
        let plans = (0..<(2 + next(6))).map { _ in
            var changes: [Int: Int] = [:]
            for _ in 0..<next(4) { changes[next(chunks.count)] = next(Self.subscriptions.count + 1) - 1 }
            return Plan(
                changes: changes, first: next(Self.subscriptions.count), reads: Self.paces[next(6)],
                hangsUpAfter: next(5) == 0 ? next(chunks.count) : nil)
        }
        let queueBytes = [3_000, 20_000, 60_000, 1 << 20][next(4)]
        let together = try Self.run(plans, queueBytes: queueBytes, chunks: chunks)
        for (index, plan) in plans.enumerated() {
            let alone = try Self.run([plan], queueBytes: queueBytes, chunks: chunks)
            let same = FanOutBytesTests.same(alone[0], together[index])
            #expect(same, "seed \(seed), client \(index): \(plan), limit \(queueBytes)")
        }
    }
}
