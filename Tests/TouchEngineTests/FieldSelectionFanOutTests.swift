import Testing

/// Subscribers that select fields get each touch and gesture line cut down to its core and their keys, and every
/// other line whole, alone or beside subscribers that selected otherwise or nothing. The answer is cut from the whole
/// stream's text (`FanOutBytesTests`'s fresh writers), apart from the engine's encoders. Same script and scene.
@Suite("Engine: field selection in the fan-out")
struct FieldSelectionFanOutTests {
    typealias Client = FanOutBytesTests.Client

    static let touchTypes: Set<String> = ["down", "move", "up", "cancel"]
    static let touchCore: Set<String> = ["type", "finger", "time_us", "x", "y"]
    static let gestureCore: Set<String> = [
        "type", "region", "gesture", "kind", "state", "time_us", "x", "y", "fingers",
    ]

    /// The stream with each touch and gesture line keeping only its core and `keys`, by the text: the members
    /// between the braces are split at `,"` (no value in this scene's lines holds that), the key read up to `":`.
    static func cut(_ stream: [UInt8], keeping keys: Set<String>) -> [UInt8] {
        var result = ""
        for line in String(decoding: stream, as: UTF8.self).split(separator: "\n") {
            let members = line.dropFirst().dropLast().components(separatedBy: #",""#)
            let type = WireLine(Array(line.utf8)[...]).type ?? "?"
            let core = touchTypes.contains(type) ? touchCore : type == "gesture" ? gestureCore : nil
            guard let core else {
                result += line + "\n"
                continue
            }
            let kept = members.enumerated().filter { index, member in
                let key = (index == 0 ? String(member.dropFirst()) : member).components(separatedBy: #"":"#)[0]
                return core.contains(key) || keys.contains(key)
            }
            result +=
                "{" + kept.map { $0.offset == 0 ? $0.element : #"""# + $0.element }.joined(separator: #","#)
                + "}\n"
        }
        return Array(result.utf8)
    }

    static func fieldsJSON(_ keys: [String]) -> String {
        #""fields":["# + keys.map { #""\#($0)""# }.joined(separator: ",") + "]"
    }

    static let selections: [[String]] = [
        [], ["region", "raw_x", "raw_y"], ["device", "slot", "dx", "dy", "vx", "vy", "local_x", "prev_y"],
        ["since_down_us", "taps", "x", "kind"],
    ]

    @Test("a subscriber alone gets each touch and gesture line cut to its core and its fields", arguments: selections)
    func alone(keys: [String]) throws {
        let outcome = try FanOutBytesTests.run([Client(fields: Self.fieldsJSON(keys))])
        let gestures = outcome.expected.split(separator: UInt8(ascii: "\n")).filter {
            WireLine($0).type == "gesture"
        }
        #expect(gestures.count > 50, "the script's drags report (88 gesture lines)")
        let answer = Self.cut(outcome.expected, keeping: Set(keys))
        #expect(answer.count < outcome.expected.count)
        let same = FanOutBytesTests.same(outcome.received[0], answer)
        #expect(same)
    }

    @Test("every selectable key is the whole line: byte for byte the stream of a subscriber to everything")
    func everyKey() throws {
        let all = [
            "device", "slot", "region", "local_x", "local_y", "prev_x", "prev_y", "dx", "dy", "since_down_us", "taps",
            "raw_x", "raw_y", "pressure", "touch_major", "touch_minor", "width_major", "width_minor", "orientation",
            "distance", "tool", "vx", "vy", "direction", "scale", "rotation",
        ]
        let outcome = try FanOutBytesTests.run([Client(fields: Self.fieldsJSON(all)), Client()])
        let first = FanOutBytesTests.same(outcome.received[0], outcome.expected)
        let second = FanOutBytesTests.same(outcome.received[1], outcome.expected)
        #expect(first && second)
    }

    @Test("subscribers of different selections, filters and none each get their own share of one stream")
    func mixed() throws {
        let regionKeys = ["region", "raw_x", "raw_y"]
        let clients = [
            Client(), Client(fields: Self.fieldsJSON(regionKeys)), Client(fields: Self.fieldsJSON([])),
            Client(fields: #""events":["touch"],"# + Self.fieldsJSON(regionKeys)), Client(),
            Client(fields: Self.fieldsJSON(regionKeys)),
        ]
        let outcome = try FanOutBytesTests.run(clients)
        let touchesOnly = FilteredFanOutTests.lines(
            of: Self.touchTypes, in: Self.cut(outcome.expected, keeping: Set(regionKeys)))
        let answers = [
            outcome.expected, Self.cut(outcome.expected, keeping: Set(regionKeys)),
            Self.cut(outcome.expected, keeping: []), touchesOnly, outcome.expected,
            Self.cut(outcome.expected, keeping: Set(regionKeys)),
        ]
        for (index, answer) in answers.enumerated() {
            let same = FanOutBytesTests.same(outcome.received[index], answer)
            #expect(same, "client \(index)")
        }
    }

    @Test("a subscriber closed for overflow in the middle of a line's fan-out leaves the others one copy of it")
    func closedOnTheWay() throws {
        // The first never reads: its queue overflows on some line, while the others of its selection (everything)
        // and of another still take that line.
        let outcome = try FanOutBytesTests.run(
            [
                Client(readsPerChunk: 0), Client(fields: #""events":["touch","gesture","frame"]"#),
                Client(fields: Self.fieldsJSON(["region"])),
            ], queueBytes: 20_000)
        #expect(outcome.slowLogs.contains { $0.contains("overflowed") })
        let whole = FanOutBytesTests.same(outcome.received[1], outcome.expected)
        let cut = FanOutBytesTests.same(outcome.received[2], Self.cut(outcome.expected, keeping: ["region"]))
        #expect(whole && cut)
    }

    @Test("a subscriber that subscribes again with other fields gets the old selection before the reply, the new after")
    func resubscribe() throws {
        let harness = EngineHarness(
            scene: Fixtures.scene(FanOutBytesTests.sceneJSON), settings: Fixtures.settings(queueBytes: 1 << 20))
        let expected = FanOutBytesTests.expectedStream(of: harness)
        let device = try harness.addDevice()
        let id = try harness.client()
        // A second subscriber that keeps its selection, so that the fan-out takes its several-selection path.
        let other = try harness.client()
        try harness.subscribe(other, Self.fieldsJSON(["region"]))
        try harness.subscribe(id, Self.fieldsJSON(["region"]))
        let chunks = FanOutBytesTests.script(frames: 600)
        let firstStart = harness[id].received.count
        var firstPart = (received: 0..<0, expected: 0..<0)
        var secondStart = (received: 0, expected: 0)
        for (index, chunk) in chunks.enumerated() {
            if index == chunks.count / 2 {
                firstPart = (firstStart..<harness[id].received.count, 0..<expected().count)
                try harness.subscribe(id, Self.fieldsJSON(["dx", "vx"]))
                secondStart = (harness[id].received.count, expected().count)
            }
            harness.feed(chunk, from: device)
            harness.settle()
        }
        let received = harness[id].received
        let whole = expected()
        let before = FanOutBytesTests.same(
            Array(received[firstPart.received]), Self.cut(Array(whole[firstPart.expected]), keeping: ["region"]))
        let after = FanOutBytesTests.same(
            Array(received[secondStart.received...]),
            Self.cut(Array(whole[secondStart.expected...]), keeping: ["dx", "vx"]))
        #expect(firstPart.received.count > 10_000 && before && after)
    }

    @Test("a selecting subscriber that reads slowly gets the same bytes alone as beside a subscriber to everything")
    func slowReader() throws {
        let fields = Self.fieldsJSON(["region", "dx"])
        let alone = try FanOutBytesTests.run([Client(fields: fields, readsPerChunk: 300)], queueBytes: 30_000)
        let beside = try FanOutBytesTests.run(
            [Client(fields: fields, readsPerChunk: 300), Client()], queueBytes: 30_000)
        let same = FanOutBytesTests.same(alone.received[0], beside.received[0])
        #expect(same)
        #expect(alone.slowLogs.contains { $0.contains("slow") }, "the queue coalesced")
        #expect(alone.slowLogs == beside.slowLogs)
    }
}
