import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchScene
import TouchWire

@Suite("Outbound queue: coalescing, overflow, backpressure")
struct OutboundQueueTests {
    @Test("a full queue coalesces moves per finger, keeps every essential line, then overflows")
    func queuePolicy() {
        var queue = OutboundQueue(limitBytes: 100)
        #expect(queue.enqueue(Array(repeating: 0x61, count: 20), kind: .essential) == .queued)
        for _ in 0..<3 {
            _ = queue.enqueue(
                Array(repeating: 0x62, count: 20), kind: .move(finger: FingerKey(device: 0, finger: FingerID(1))))
        }
        #expect(queue.byteCount == 80)
        // This one crosses the limit: the two older moves of finger 1 go.
        #expect(
            queue.enqueue(
                Array(repeating: 0x63, count: 30), kind: .move(finger: FingerKey(device: 0, finger: FingerID(2))))
                == .coalesced(dropped: 2))
        #expect(queue.byteCount == 70)
        var written: [UInt8] = []
        queue.flush { raw in
            written += raw
            return raw.count
        }
        #expect(
            written == Array(repeating: 0x61, count: 20) + Array(repeating: 0x62, count: 20)
                + Array(repeating: 0x63, count: 30))
        // A queue is not copyable: its properties are read into values for `#expect`, which copies what it checks.
        let emptied = queue.isEmpty
        #expect(emptied)

        var full = OutboundQueue(limitBytes: 50)
        _ = full.enqueue(Array(repeating: 0, count: 40), kind: .essential)
        #expect(full.enqueue(Array(repeating: 0, count: 20), kind: .essential) == .overflow)
    }

    @Test("lines queued after a flush that wrote everything coalesce among themselves alone")
    func afterFullFlush() {
        var queue = OutboundQueue(limitBytes: 100)
        let finger = OutboundQueue.Kind.move(finger: FingerKey(device: 0, finger: FingerID(1)))
        for _ in 0..<4 { _ = queue.enqueue(Array(repeating: 0x61, count: 20), kind: finger) }
        queue.flush { $0.count }
        #expect(queue.isEmpty && queue.eventByteCount == 0)
        _ = queue.enqueue(Array(repeating: 0x62, count: 40), kind: .essential)
        _ = queue.enqueue(Array(repeating: 0x63, count: 30), kind: finger)
        // 110 bytes: only the move queued since the flush is superseded, none of the four written before it.
        #expect(queue.enqueue(Array(repeating: 0x64, count: 40), kind: finger) == .coalesced(dropped: 1))
        var written: [UInt8] = []
        queue.flush { raw in
            written += raw
            return raw.count
        }
        #expect(written == Array(repeating: 0x62, count: 40) + Array(repeating: 0x64, count: 40))
    }

    @Test("a partly written line is finished before anything else and never coalesced away")
    func partialWrite() {
        var queue = OutboundQueue(limitBytes: 1000)
        _ = queue.enqueue(Array("move-1-a\n".utf8), kind: .move(finger: FingerKey(device: 0, finger: FingerID(1))))
        _ = queue.enqueue(Array("move-1-b\n".utf8), kind: .move(finger: FingerKey(device: 0, finger: FingerID(1))))
        var written: [UInt8] = []
        queue.flush { raw in
            let take = min(raw.count, 4)
            written += raw.prefix(take)
            return take  // a short write: the socket took 4 bytes
        }
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("move"))
        var rest: [UInt8] = []
        queue.flush { raw in
            rest += raw
            return raw.count
        }
        #expect(String(decoding: written + rest, as: UTF8.self).contains("move-1-a\n"))
    }

    @Test("replies are never dropped and do not count towards the limit; backpressure marks are half and a quarter")
    func repliesAndWaterMarks() {
        var queue = OutboundQueue(limitBytes: 100)
        #expect(queue.enqueue(Array(repeating: 0, count: 30), kind: .reply) == .queued)
        let overAt30 = queue.isOverHighWater
        #expect(!overAt30)
        #expect(queue.enqueue(Array(repeating: 0, count: 30), kind: .reply) == .queued)
        let overAt60 = queue.isOverHighWater
        #expect(overAt60)  // 60 > 50
        // 260 bytes of replies, far past the limit: still queued, never an overflow.
        #expect(queue.enqueue(Array(repeating: 0, count: 200), kind: .reply) == .queued)
        #expect(queue.byteCount == 260 && queue.eventByteCount == 0)
        // Events are bounded on their own: 90 bytes fit, 120 do not.
        #expect(queue.enqueue(Array(repeating: 1, count: 90), kind: .essential) == .queued)
        #expect(queue.enqueue(Array(repeating: 1, count: 30), kind: .essential) == .overflow)
        var drained = OutboundQueue(limitBytes: 100)
        _ = drained.enqueue(Array(repeating: 0, count: 60), kind: .reply)
        drained.flush { min($0.count, 35) }  // the socket takes 35 of 60: 25 left, at the low-water mark
        #expect(drained.byteCount == 25 && drained.isUnderLowWater && !drained.isOverHighWater)
    }

    @Test("bytes leave in the order they came, through short writes, compaction past 64 KiB and coalescing")
    func roundTrip() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        // Essential lines only: none may be dropped, so what leaves is exactly what came, byte for byte.
        var queue = OutboundQueue(limitBytes: 1 << 20)
        var sent: [UInt8] = []
        var received: [UInt8] = []
        for round in 0..<3_000 {
            let line = (0..<(1 + next(300))).map { UInt8(truncatingIfNeeded: round &+ $0) }
            sent += line
            #expect(queue.enqueue(line, kind: .essential) == .queued)
            // The socket takes a little less than comes, so written bytes pile up to the compaction point.
            queue.flush { raw in
                let take = min(raw.count, next(320))
                received += raw.prefix(take)
                return take
            }
        }
        queue.flush { raw in
            received += raw
            return raw.count
        }
        #expect(queue.isEmpty && received == sent)

        // Over the limit, with the head partly written: the moves of one finger collapse to the newest, in order.
        var small = OutboundQueue(limitBytes: 40)
        let finger = OutboundQueue.Kind.move(finger: FingerKey(device: 0, finger: FingerID(1)))
        _ = small.enqueue(Array("head-line\n".utf8), kind: .essential)
        small.flush { _ in 5 }
        for index in 0..<8 { _ = small.enqueue(Array("move-\(index)\n".utf8), kind: finger) }
        var rest: [UInt8] = []
        small.flush { raw in
            rest += raw
            return raw.count
        }
        #expect(String(decoding: rest, as: UTF8.self).hasPrefix("line\n") && small.droppedByCoalescing > 0)
        #expect(String(decoding: rest, as: UTF8.self).hasSuffix("move-7\n"))
    }

    @Test("lines written straight into the queue leave as lines copied in do, through coalescing and overflow")
    func writtenInPlace() {
        var written = OutboundQueue(limitBytes: 120)
        var copied = OutboundQueue(limitBytes: 120)
        var outcomes: [(OutboundQueue.Outcome, OutboundQueue.Outcome)] = []
        for index in 0..<60 {
            let finger = OutboundQueue.Kind.move(finger: FingerKey(device: 0, finger: FingerID(UInt32(index % 3))))
            let kind = index % 10 == 0 ? OutboundQueue.Kind.essential : finger
            let value = Double(index) * 1.25 - 20
            var line = JSONWriter()
            line.writeTemplate(maximum: 64) {
                $0.literal("{\"x\":"); $0.hundredths(value); $0.literal("}\n")
            }
            let start = written.end
            written.tail.writeTemplate(maximum: 64) { cursor in
                cursor.literal("{\"x\":")
                cursor.hundredths(value, keepingIn: 0)
                cursor.literal("}\n")
            }
            let inPlace = written.queueWritten(from: start, kind: kind)
            let copy = line.withUnsafeBytes { copied.enqueue($0, kind: kind) }
            outcomes.append((inPlace, copy))
            if index % 7 == 0 {
                written.flush { $0.count / 2 }
                copied.flush { $0.count / 2 }
            }
        }
        #expect(outcomes.allSatisfy { $0.0 == $0.1 })
        #expect(outcomes.contains { if case .coalesced = $0.0 { true } else { false } })
        func drain(_ queue: inout OutboundQueue) -> [UInt8] {
            var bytes: [UInt8] = []
            queue.flush { raw in
                bytes += raw
                return raw.count
            }
            return bytes
        }
        #expect(drain(&written) == drain(&copied))
        var tiny = OutboundQueue(limitBytes: 8)
        let start = tiny.end
        tiny.tail.element("a string longer than eight bytes")
        let outcome = tiny.queueWritten(from: start, kind: .essential)
        #expect(outcome == .overflow)
    }
}
