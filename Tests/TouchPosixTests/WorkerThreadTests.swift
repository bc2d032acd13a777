import Synchronization
import Testing
import TouchPosix

/// The replay's read-ahead parts: a bounded handoff between two threads and a joinable worker thread, with real
/// threads.
@Suite("Worker threads and the bounded handoff")
struct WorkerThreadTests {
    @Test("every element arrives once, in order, through a handoff of one and of eight")
    func order() throws {
        for capacity in [1, 8] {
            let handoff = BoundedHandoff<Int>(capacity: capacity)
            let producer = try WorkerThread { () -> Int in
                for value in 0..<10_000 { handoff.put(value) }
                handoff.finish()
                return 10_000
            }
            var received: [Int] = []
            while let value = handoff.take() { received.append(value) }
            #expect(producer.join() == 10_000)
            #expect(received == Array(0..<10_000))
        }
    }

    @Test("a producer ahead of its consumer holds no more than the capacity")
    func bounded() throws {
        let handoff = BoundedHandoff<Int>(capacity: 4)
        let put = Atomic<Int>(0)
        let producer = try WorkerThread { () -> Bool in
            for value in 0..<6 {
                guard handoff.put(value) else { return false }
                put.add(1, ordering: .sequentiallyConsistent)
            }
            handoff.finish()
            return true
        }
        #expect(Self.waitUntil { put.load(ordering: .sequentiallyConsistent) == 4 })
        Posix.sleep(microseconds: 20_000)
        let beforeTaking = put.load(ordering: .sequentiallyConsistent)
        #expect(beforeTaking == 4, "the fifth waits for room")
        var taken: [Int] = []
        while let value = handoff.take() { taken.append(value) }
        #expect(taken == Array(0..<6))
        #expect(producer.join())
    }

    @Test("a producer that waited for room is woken once half is taken, not at every element")
    func wokenAtHalf() throws {
        // The consumer is the slower: woken at every take, the producer would wait about once per element.
        // Woken at half, it puts at least capacity / 2 each time it runs: at most 1000 / 4 waits, and one more.
        let handoff = BoundedHandoff<Int>(capacity: 8)
        let producer = try WorkerThread { () -> Int in
            for value in 0..<1000 { handoff.put(value) }
            handoff.finish()
            return 0
        }
        var taken = 0
        while handoff.take() != nil {
            taken += 1
            Posix.sleep(microseconds: 20)
        }
        _ = producer.join()
        #expect(taken == 1000)
        #expect(handoff.producerWaits <= 251, "\(handoff.producerWaits) waits")
        #expect(handoff.producerWaits >= 1, "the consumer was the slower")
    }

    @Test("a consumer that cancels frees a waiting producer, whose put says false")
    func cancel() throws {
        let handoff = BoundedHandoff<Int>(capacity: 2)
        let put = Atomic<Int>(0)
        let producer = try WorkerThread { () -> Int in
            for value in 0..<100 {
                guard handoff.put(value) else { return value }
                put.add(1, ordering: .sequentiallyConsistent)
            }
            return 100
        }
        #expect(Self.waitUntil { put.load(ordering: .sequentiallyConsistent) == 2 }, "full: the third put waits")
        handoff.cancel()
        #expect(producer.join() == 2, "the third put was refused")
        #expect(handoff.take() == nil, "what was held is dropped")
    }

    @Test("a worker released before it is joined is joined first: its work is done")
    func releasedWorker() throws {
        let done = Atomic<Bool>(false)
        do {
            _ = try WorkerThread { () -> Int in
                Posix.sleep(microseconds: 20_000)
                done.store(true, ordering: .sequentiallyConsistent)
                return 0
            }
        }
        let finished = done.load(ordering: .sequentiallyConsistent)
        #expect(finished)
    }

    static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<2000 {
            if condition() { return true }
            Posix.sleep(microseconds: 1000)
        }
        return condition()
    }
}
