import Testing
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The event loop: which handler a ready descriptor reaches")
struct EventLoopTests {
    /// Pipes whose read ends the tests register; each is made readable by writing a byte to its write end.
    final class Pipes {
        var ends: [(read: Int32, write: Int32)] = []

        func make(_ count: Int) throws -> [(read: Int32, write: Int32)] {
            for _ in 0..<count {
                var pair: [Int32] = [-1, -1]
                guard pipe(&pair) == 0 else { throw SystemError("pipe") }
                ends.append((pair[0], pair[1]))
            }
            return Array(ends.suffix(count))
        }

        func ready(_ end: (read: Int32, write: Int32)) {
            var byte: UInt8 = 1
            _ = write(end.write, &byte, 1)
        }

        deinit {
            for end in ends {
                close(end.read)
                close(end.write)
            }
        }
    }

    @Test("each ready descriptor reaches its own handler, once a wake-up, and a removed one none")
    func handlersByDescriptor() throws {
        let loop = try EventLoop()
        let pipes = Pipes()
        let ends = try pipes.make(4)
        var calls: [Int] = []
        var tokens: [UInt64] = []
        for (index, end) in ends.enumerated() {
            tokens.append(try loop.register(end.read, for: .readable) { _ in calls.append(index) })
        }
        #expect(Set(tokens).count == 4)
        pipes.ready(ends[1])
        pipes.ready(ends[3])
        #expect(try loop.runOnce(timeoutMilliseconds: 1000) == 2)
        #expect(calls.sorted() == [1, 3])
        calls = []
        loop.deregister(tokens[1])
        // Still readable (nothing read the byte), but no longer watched; 3 is still readable and watched.
        #expect(try loop.runOnce(timeoutMilliseconds: 0) == 1)
        #expect(calls == [3])
        #expect(loop.wakeups == 2)
    }

    @Test("a slot freed and reused gives a new token: the old token neither removes nor changes the new registration")
    func staleTokens() throws {
        let loop = try EventLoop()
        let pipes = Pipes()
        let ends = try pipes.make(2)
        var calls: [String] = []
        let first = try loop.register(ends[0].read, for: .readable) { _ in calls.append("first") }
        loop.deregister(first)
        let second = try loop.register(ends[1].read, for: .readable) { _ in calls.append("second") }
        #expect(second != first)
        loop.deregister(first)  // stale: the registration it named is gone
        try loop.modify(first, interest: [])  // stale: ignored
        pipes.ready(ends[1])
        #expect(try loop.runOnce(timeoutMilliseconds: 1000) == 1)
        #expect(calls == ["second"])
    }

    @Test("a handler removes a later ready descriptor and registers another in its slot: the removed one is not called")
    func removedWithinABatch() throws {
        let loop = try EventLoop()
        let pipes = Pipes()
        let ends = try pipes.make(3)
        var calls: [String] = []
        var tokens: [String: UInt64] = [:]
        // Whichever of the two runs first removes the other and puts a newcomer (not ready) in the freed slot.
        for name in ["a", "b"] {
            let end = name == "a" ? ends[0] : ends[1]
            // unowned: the loop holds this handler, so a strong capture would be a cycle that outlives the test.
            tokens[name] = try loop.register(end.read, for: .readable) { [unowned loop] _ in
                calls.append(name)
                let other = name == "a" ? "b" : "a"
                loop.deregister(tokens[other]!)
                tokens["newcomer"] = try? loop.register(ends[2].read, for: .readable) { _ in
                    calls.append("newcomer")
                }
            }
        }
        pipes.ready(ends[0])
        pipes.ready(ends[1])
        #expect(try loop.runOnce(timeoutMilliseconds: 1000) == 2)
        #expect(calls.count == 1)
        #expect(calls == ["a"] || calls == ["b"])
    }

    @Test("a handler that runs the loop itself does not disturb the batch being dispatched")
    func nestedRun() throws {
        let loop = try EventLoop()
        let pipes = Pipes()
        let ends = try pipes.make(3)
        var calls: [String] = []
        var nestedDone = false
        for (index, end) in ends.prefix(2).enumerated() {
            try loop.register(end.read, for: .readable) { [unowned loop] _ in
                calls.append("outer \(index)")
                guard !nestedDone else { return }
                nestedDone = true
                pipes.ready(ends[2])
                _ = try? loop.runOnce(timeoutMilliseconds: 0)
            }
        }
        try loop.register(ends[2].read, for: .readable) { _ in calls.append("inner") }
        pipes.ready(ends[0])
        pipes.ready(ends[1])
        _ = try loop.runOnce(timeoutMilliseconds: 1000)
        // The nested wake-up sees all three (none has been read), and the outer batch still reaches its second.
        #expect(calls.filter { $0 == "inner" }.count == 1)
        #expect(calls.filter { $0.hasPrefix("outer") }.count == 4)
    }

    @Test("a timer released before its loop leaves it: its slot is the next registration's")
    func releasedTimerDeregisters() throws {
        let loop = try EventLoop()
        do {
            let timer = try LoopTimer(loop: loop) {}
            withExtendedLifetime(timer) {}
        }
        let pipes = Pipes()
        let end = try pipes.make(1)[0]
        let token = try loop.register(end.read, for: .readable) { _ in }
        #expect(token & 0xffff_ffff == 0)
    }

    @Test("removing a handler that holds the last reference to a timer also removes the timer's registration")
    func handlerReleasingATimer() throws {
        let loop = try EventLoop()
        let pipes = Pipes()
        let end = try pipes.make(1)[0]
        let token: UInt64
        do {
            let timer = try LoopTimer(loop: loop) {}
            token = try loop.register(end.read, for: .readable) { _ in withExtendedLifetime(timer) {} }
        }
        // The timer deregisters itself from its deinit, inside this call.
        loop.deregister(token)
        // Both slots are free again: the next two registrations take them.
        let slots = try pipes.make(2).map { try loop.register($0.read, for: .readable) { _ in } & 0xffff_ffff }
        #expect(Set(slots) == [0, 1])
    }
}
