import Foundation
import Synchronization
import TouchPosix

/// The fan-out benchmark with a client side that stays small: every subscriber's socket read by ONE thread through
/// one epoll (TouchPosix's EventLoop), instead of a thread per client competing with the daemon for the cores.
/// Latency is measured as `fanOut` measures it: CLOCK_MONOTONIC when the bytes are read, minus the event's
/// `time_us` (stamped by the daemon on CLOCK_MONOTONIC when the event came due); here the clock is read once per
/// `read`, for every line that read completed. The sockets that one `epoll_wait` reports are all read first, each
/// stamped as it is read, and parsed after: the last socket's stamp does not wait for the others' lines to be parsed.
enum EpollFanOut {
    /// One subscriber: its socket, the tail of a line not yet complete, and what it has received.
    final class Connection {
        let fd: Int32
        /// Bytes read and not yet parsed (`pending[0..<filled]`): whole lines from the last read, and the start of
        /// one still to come. A read lands here directly: copied out of a shared buffer, every socket's read in a
        /// batch waited for the copy of the ones before it, and the last sockets' stamps measured the reader.
        var pending = [UInt8](repeating: 0, count: 1 << 16)
        var filled = 0
        /// When the last read returned (microseconds, CLOCK_MONOTONIC).
        var readAt: Int64 = 0
        var subscribed = false
        var received = 0
        var token: UInt64 = 0
        var done = false

        init(fd: Int32) { self.fd = fd }
    }

    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    static func run(touchd: String, clients: Int, rate: Int, seconds: Double, strace: String? = nil) throws
        -> DaemonBenchmarks.FanOut
    {
        try DaemonBenchmarks.withFanOutDaemon(
            touchd: touchd, clients: clients, rate: rate, seconds: seconds, strace: strace
        ) { daemon, expected in
            var connections: [Connection] = []
            defer { for connection in connections { Posix.close(connection.fd) } }
            let request = Array(#"{"op":"subscribe","id":1,"events":["touch"]}"#.utf8) + [10]
            for _ in 0..<clients {
                let fd = try connect(daemon.socket)
                connections.append(Connection(fd: fd))
                try Posix.sendAll(fd, request)
            }
            var latencies: [Double] = []
            latencies.reserveCapacity(expected * clients)
            var finished = 0
            var batch: [Connection] = []
            let loop = try EventLoop()
            func handle(_ connection: Connection) {
                let room = connection.pending.count - connection.filled
                if room < 4096 { connection.pending += [UInt8](repeating: 0, count: connection.pending.count) }
                let read = connection.pending.withUnsafeMutableBytes { raw in
                    Glibc.read(connection.fd, raw.baseAddress! + connection.filled, raw.count - connection.filled)
                }
                switch read {
                case 1...:
                    connection.readAt = Measure.nanoseconds() / 1000
                    connection.filled += read
                    batch.append(connection)
                case -1 where errno == EAGAIN || errno == EINTR:
                    return
                default:
                    finish(connection)
                }
            }
            func parse(_ connection: Connection) {
                let now = connection.readAt
                takeLines(of: connection) { line in
                    guard connection.subscribed else {
                        // The hello, then the reply to the subscribe request: events follow it.
                        if contains(line, replyMarker) { connection.subscribed = true }
                        return
                    }
                    connection.received += 1
                    if let stamp = DaemonBenchmarks.timeField(line) { latencies.append(Double(now - stamp)) }
                }
                if connection.received >= expected { finish(connection) }
            }
            func finish(_ connection: Connection) {
                guard !connection.done else { return }
                connection.done = true
                loop.deregister(connection.token)
                finished += 1
            }
            for connection in connections {
                connection.token = try loop.register(connection.fd, for: .readable) { _ in handle(connection) }
            }
            let probe = WakeUpProbe()
            let cpuBefore = daemon.cpuTicks
            let readerBefore = DaemonBenchmarks.cpuTicks("self")
            let start = Measure.nanoseconds()
            let deadline = start + Int64((seconds * 4 + 20) * 1e9)
            while finished < clients, Measure.nanoseconds() < deadline {
                try loop.runOnce(timeoutMilliseconds: 1000)
                for connection in batch { parse(connection) }
                batch.removeAll(keepingCapacity: true)
            }
            let wall = Double(Measure.nanoseconds() - start) / 1e9
            let lateness = probe.stop()
            let hertz = Double(Posix.clockTicksPerSecond)
            let ticks = daemon.cpuTicks - cpuBefore
            let readerTicks = DaemonBenchmarks.cpuTicks("self") - readerBefore
            latencies.sort()
            return DaemonBenchmarks.FanOut(
                clients: clients, expected: expected * clients,
                received: connections.reduce(0) { $0 + $1.received },
                latencyP50: Measure.percentile(latencies, 50), latencyP99: Measure.percentile(latencies, 99),
                cpuPercent: Double(ticks) / hertz / wall * 100,
                readerCPUPercent: Double(readerTicks) / hertz / wall * 100,
                latencyP90: Measure.percentile(latencies, 90), latencyMax: latencies.last ?? .nan,
                wakeUpLatenessP99: Measure.percentile(lateness, 99))
        }
    }

    /// How late the machine wakes a sleeping thread while the benchmark runs: a thread of this process that sleeps
    /// 1 ms at a time and records by how much each sleep overran. On a shared machine this is the floor under any
    /// latency measured at the same time: a p99 of the fan-out below it is not to be had.
    final class WakeUpProbe: Sendable {
        private let running = Atomic<Bool>(true)
        private let samples = Mutex<[Double]>([])
        private let done = DispatchSemaphore(value: 0)

        init() {
            Thread.detachNewThread { [self] in
                var lateness: [Double] = []
                lateness.reserveCapacity(100_000)
                while running.load(ordering: .relaxed) {
                    let before = Measure.nanoseconds()
                    Posix.sleep(microseconds: 1000)
                    lateness.append(Double(Measure.nanoseconds() - before) / 1000 - 1000)
                }
                samples.withLock { $0 = lateness }
                done.signal()
            }
        }

        /// Ends the probe; the lateness of each sleep in microseconds, sorted.
        func stop() -> [Double] {
            running.store(false, ordering: .relaxed)
            done.wait()
            return samples.withLock { $0.sorted() }
        }
    }

    static let replyMarker = Array(#""type":"reply""#.utf8)

    /// A connection to the daemon's socket, retried while it is not up yet or its backlog is full.
    static func connect(_ socket: String) throws -> Int32 {
        var failure: SystemError?
        for _ in 0..<500 {
            do {
                return try Posix.connect(unixSocket: socket)
            } catch {
                failure = error
                Posix.sleep(microseconds: 10_000)
            }
        }
        throw SetupError(description: "cannot connect to \(socket): \(failure.map { "\($0)" } ?? "")")
    }

    /// Calls `body` with each complete line of what the connection has read, in place (memchr finds the ends), and
    /// keeps the incomplete rest for the next read.
    static func takeLines(of connection: Connection, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let filled = connection.filled
        connection.filled = connection.pending.withUnsafeMutableBufferPointer { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            var start = 0
            while start < filled, let found = memchr(base + start, 10, filled - start) {
                let end = found.assumingMemoryBound(to: UInt8.self) - base
                body(UnsafeBufferPointer(start: base + start, count: end - start))
                start = end + 1
            }
            // The start of a line still to come moves to the front (nearly always nothing: reads end at a line's end).
            base.update(from: base + start, count: filled - start)
            return filled - start
        }
    }

    static func contains(_ line: UnsafeBufferPointer<UInt8>, _ marker: [UInt8]) -> Bool {
        guard line.count >= marker.count else { return false }
        return (0...(line.count - marker.count)).contains { offset in
            marker.indices.allSatisfy { line[offset + $0] == marker[$0] }
        }
    }
}
