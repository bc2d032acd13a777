import Testing

/// A filtered subscriber's share does not depend on who else listens: alone it may be the only taker of a line
/// (encoded straight into its queue) or of none (the line is not encoded at all); beside a subscriber to everything
/// it gets a copy of the line encoded once. Same script and scene as `FanOutBytesTests`.
@Suite("Engine: filtered fan-out, alone or beside others")
struct FilteredFanOutTests {
    typealias Client = FanOutBytesTests.Client

    /// The lines of `stream` whose type is one of `types`, each with its newline: a filter's share worked out from
    /// the whole stream, apart from the engine.
    static func lines(of types: Set<String>, in stream: [UInt8]) -> [UInt8] {
        var share: [UInt8] = []
        for line in stream.split(separator: UInt8(ascii: "\n")) where types.contains(WireLine(line).type ?? "?") {
            share += line + [UInt8(ascii: "\n")]
        }
        return share
    }

    @Test(
        "a subscriber to some kinds, alone and reading at once, gets exactly those lines of the whole stream",
        arguments: [
            (#""events":["touch"]"#, ["down", "move", "up", "cancel"]),
            (#""events":["frame"]"#, ["frame"]),
            (#""events":["touch","gesture"]"#, ["down", "move", "up", "cancel", "gesture"]),
        ])
    func kindsAlone(fields: String, types: [String]) throws {
        let alone = try FanOutBytesTests.run([Client(fields: fields)])
        let share = Self.lines(of: Set(types), in: alone.expected)
        #expect(share.count > 10_000)
        // Bound first: an expectation on the call itself would print both streams when it fails.
        let same = FanOutBytesTests.same(alone.received[0], share)
        #expect(same)
    }

    @Test(
        "a filtered subscriber alone gets the bytes it gets beside a subscriber to everything",
        arguments: [
            #""events":["touch"]"#, #""regions":["inner"]"#, #""regions":["origin"],"unassigned":true"#,
            #""events":["gesture"]"#, #""devices":["event7"]"#,
        ])
    func filteredAlone(fields: String) throws {
        for reads: Int? in [nil, 700] {
            let alone = try FanOutBytesTests.run([Client(fields: fields, readsPerChunk: reads)], queueBytes: 60_000)
            let beside = try FanOutBytesTests.run(
                [Client(fields: fields, readsPerChunk: reads), Client()], queueBytes: 60_000)
            let same = FanOutBytesTests.same(alone.received[0], beside.received[0])
            #expect(same, "\(fields), reads \(reads ?? -1)")
            let sameFinal = FanOutBytesTests.same(alone.finalBytes[0] ?? [], beside.finalBytes[0] ?? [])
            #expect(sameFinal)
            #expect(alone.slowLogs == beside.slowLogs)
            let isShare = FanOutBytesTests.isSubsequence(alone.received[0], of: alone.expected)
            #expect(isShare)
        }
    }

    @Test("two filtered subscribers that share some lines each get their own share, copied from one encoding")
    func twoFiltered() throws {
        let outcome = try FanOutBytesTests.run([
            Client(fields: #""events":["touch"]"#), Client(fields: #""events":["touch","frame"]"#),
        ])
        let touches: Set = ["down", "move", "up", "cancel"]
        let first = FanOutBytesTests.same(outcome.received[0], Self.lines(of: touches, in: outcome.expected))
        let second = FanOutBytesTests.same(
            outcome.received[1], Self.lines(of: touches.union(["frame"]), in: outcome.expected))
        #expect(first && second)
    }
}
