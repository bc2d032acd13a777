import Foundation
import Synchronization
import Testing
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Writing all of a buffer")
struct WriteAllTests {
    @Test("a buffer larger than a pipe holds arrives whole and in order")
    func largerThanAPipe() throws {
        let (readEnd, writeEnd) = try pipeDescriptors()
        defer { Posix.close(readEnd) }
        let bytes = pattern(count: 1 << 20)
        let received = readingAll(from: readEnd)
        try Posix.writeAll(writeEnd, bytes)
        Posix.close(writeEnd)
        #expect(received.value() == bytes)
    }

    @Test("a send that times out part way goes on with the rest, and then reports the timeout as would-block")
    func sendTimeoutAfterAShortSend() throws {
        let (ours, peer) = try socketPair()
        defer {
            Posix.close(ours)
            Posix.close(peer)
        }
        try Posix.setSendTimeout(ours, milliseconds: 50)
        // Far more than a socket buffer holds, with nobody reading: the first send stops short when the time runs
        // out, and only a second one can fail.
        let bytes = pattern(count: 4 << 20)
        #expect {
            try Posix.sendAll(ours, bytes)
        } throws: { error in
            (error as? SystemError)?.isWouldBlock == true
        }
        try Posix.setNonBlocking(peer)
        var arrived: [UInt8] = []
        var buffer: [UInt8] = []
        while case .bytes(let count) = try Posix.read(peer, into: &buffer, count: 65536) {
            arrived += buffer[0..<count]
        }
        #expect(!arrived.isEmpty)
        #expect(arrived.count < bytes.count)
        #expect(arrived[...] == bytes[0..<arrived.count])
    }
}

/// Each signal interrupts a blocking call with EINTR (the handler is installed without SA_RESTART): the wrappers
/// must carry on as if nothing happened.
@Suite("Calls interrupted by signals", .serialized)
struct InterruptedCallTests {
    @Test("a read interrupted while it waits returns the bytes that come afterwards")
    func readCarriesOn() throws {
        let (readEnd, writeEnd) = try pipeDescriptors()
        defer {
            Posix.close(readEnd)
            Posix.close(writeEnd)
        }
        let (result, signals) = whileSignalled {
            var buffer: [UInt8] = []
            return Result { () throws(SystemError) in try Posix.read(readEnd, into: &buffer, count: 16) }
        } meanwhile: {
            try? Posix.writeAll(writeEnd, Array("late".utf8))
        }
        #expect(signals > 0)
        #expect(try result.get() == .bytes(4))
    }

    @Test("a sleep lasts its whole time")
    func sleepCarriesOn() {
        let (elapsed, signals) = whileSignalled {
            let start = MonotonicClock.nowMicroseconds()
            Posix.sleep(microseconds: 100_000)
            return MonotonicClock.nowMicroseconds() - start
        }
        #expect(signals > 0)
        #expect(elapsed >= 100_000)
    }

    @Test("a wait for input lasts its whole time, then says nothing came")
    func waitCarriesOn() throws {
        let (readEnd, writeEnd) = try pipeDescriptors()
        defer {
            Posix.close(readEnd)
            Posix.close(writeEnd)
        }
        let (outcome, signals) = whileSignalled {
            let start = MonotonicClock.nowMicroseconds()
            let ready = Result { () throws(SystemError) in
                try Posix.waitUntilReadable(readEnd, timeoutMilliseconds: 100)
            }
            return (ready, MonotonicClock.nowMicroseconds() - start)
        }
        #expect(signals > 0)
        #expect(try outcome.0.get() == false)
        #expect(outcome.1 >= 100_000)
        try Posix.writeAll(writeEnd, [1])
        #expect(try Posix.waitUntilReadable(readEnd, timeoutMilliseconds: 10_000))
    }
}

// MARK: - Helpers

private func pipeDescriptors() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SystemError("pipe") }
    return (ends[0], ends[1])
}

private func socketPair() throws -> (Int32, Int32) {
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw SystemError("socketpair") }
    return (ends[0], ends[1])
}

private func pattern(count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) } }

/// A value filled in by another thread, waited for.
private final class Handoff<Value: Sendable>: Sendable {
    private let slot = Mutex<Value?>(nil)
    private let filled = DispatchSemaphore(value: 0)

    func fill(_ value: Value) {
        slot.withLock { $0 = value }
        filled.signal()
    }

    func value() -> Value {
        filled.wait()
        return slot.withLock { $0! }
    }

    var isFilled: Bool { slot.withLock { $0 != nil } }
}

/// Everything read from `fd` until end of file, by a thread of its own.
private func readingAll(from fd: Int32) -> Handoff<[UInt8]> {
    let result = Handoff<[UInt8]>()
    Thread.detachNewThread {
        var all: [UInt8] = []
        var buffer: [UInt8] = []
        while case .bytes(let count)? = try? Posix.read(fd, into: &buffer, count: 65536) { all += buffer[0..<count] }
        result.fill(all)
    }
    return result
}

private let signalsHandled = Atomic<Int>(0)

/// Runs `body` on a thread of its own and sends that thread SIGUSR1 every 5 ms until `body` returns; `meanwhile`
/// runs once after the first few signals. Returns what `body` returned and how many signals its thread handled.
private func whileSignalled<Value: Sendable>(
    _ body: @escaping @Sendable () -> Value, meanwhile: () -> Void = {}
) -> (Value, Int) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in signalsHandled.wrappingAdd(1, ordering: .relaxed) }
    action.sa_flags = 0
    sigemptyset(&action.sa_mask)
    sigaction(SIGUSR1, &action, nil)
    let before = signalsHandled.load(ordering: .relaxed)

    let thread = Handoff<pthread_t>()
    let result = Handoff<Value>()
    // The thread outlives `body` until the signals stop: a signal sent to a thread that has ended is undefined.
    let release = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        // A thread starts with its creator's mask, and the test runner's threads (libdispatch's) block signals.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        thread.fill(pthread_self())
        result.fill(body())
        release.wait()
    }
    let target = thread.value()
    var sent = 0
    while !result.isFilled {
        pthread_kill(target, SIGUSR1)
        sent += 1
        if sent == 5 { meanwhile() }
        usleep(5000)
    }
    release.signal()
    return (result.value(), signalsHandled.load(ordering: .relaxed) - before)
}
