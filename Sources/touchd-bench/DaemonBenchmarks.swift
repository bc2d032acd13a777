import CShims
import Foundation
import Synchronization
import TouchClient
import TouchCore
import TouchFormats
import TouchPosix

/// The daemon as a process, with real socket clients: fan-out (threads or one epoll reader), write calls, idle.
enum DaemonBenchmarks {
    struct FanOut {
        var clients: Int
        var expected: Int
        var received: Int
        var latencyP50: Double
        var latencyP99: Double
        var cpuPercent: Double
        /// The reading side's own CPU (the benchmark process), percent of one core over the same wall time.
        var readerCPUPercent: Double = 0
        /// Device frames whose events every client received (10 touch events each).
        var frames: Int = 0
        /// fanout-epoll: the 90th percentile and the largest latency (microseconds).
        var latencyP90: Double = .nan
        var latencyMax: Double = .nan
        /// fanout-epoll: the 99th percentile of how late a 1 ms sleep in this process woke (microseconds).
        var wakeUpLatenessP99: Double = .nan
        /// With `--strace`: the daemon's write-type system calls over the whole run, by name.
        var writeCalls: [String: Int] = [:]
    }

    struct Idle {
        var seconds: Double
        var wakeups: Int
        var rssKilobytes: Int
    }

    /// A daemon process in a scratch directory.
    final class DaemonRun {
        let process = Process()
        let directory: String
        let socket: String

        /// `wrapper`: a command that runs the daemon (strace), or none.
        init(touchd: String, arguments: [String], config: String, wrapper: [String] = []) throws {
            directory = NSTemporaryDirectory() + "touchd-bench-\(Posix.processID)-\(UInt32.random(in: 0...UInt32.max))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            socket = directory + "/touchd.sock"
            try config.write(toFile: directory + "/config.json", atomically: true, encoding: .utf8)
            let run = ["run", "--socket", socket, "--config", directory + "/config.json", "--log-level", "warning"]
            if wrapper.isEmpty {
                process.executableURL = URL(fileURLWithPath: touchd)
                process.arguments = run + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = wrapper + [touchd] + run + arguments
            }
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { Posix.sleep(microseconds: 10_000) }
        }

        /// utime + stime in clock ticks.
        var cpuTicks: Int { DaemonBenchmarks.cpuTicks("\(process.processIdentifier)") }

        func status(_ key: String) -> Int {
            guard
                let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") })
            else { return 0 }
            return Int(
                line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map {
                    $0.trimmingCharacters(in: .whitespaces)
                } ?? "") ?? 0
        }

        func stop() {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// utime + stime in clock ticks of /proc/PROCESS/stat ("self" for this process).
    static func cpuTicks(_ process: String) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)  // fields 14 and 15 of stat(5)
    }

    static func writeRecording(_ recording: Recording, to path: String) throws {
        try EvemuWriter.write(description: recording.description, events: recording.events).write(
            toFile: path, atomically: true, encoding: .utf8)
    }

    /// The fan-out load: 10 fingers at `rate` Hz for `seconds` replayed as a device through a one-region scene,
    /// started when `clients` have subscribed. `read` connects, subscribes and reads given the daemon's socket and
    /// the touch events each client should get; it returns the result with `received` and the latencies filled.
    /// With `strace`, the daemon runs under `strace -f -c` for its write-type calls, written to that file (`-I2`:
    /// with `-o FILE`, strace would otherwise block SIGTERM, and stopping the daemon would wait for ever).
    static func withFanOutDaemon(
        touchd: String, clients: Int, rate: Int, seconds: Double, strace: String?,
        read: (_ daemon: DaemonRun, _ expectedPerClient: Int) throws -> FanOut
    ) throws -> FanOut {
        let recording = BenchRecordings.tenFingers(rate: rate, seconds: seconds)
        let file = NSTemporaryDirectory() + "touchd-bench-fingers-\(Posix.processID).evemu"
        try writeRecording(recording, to: file)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let scene = NSTemporaryDirectory() + "touchd-bench-scene-\(Posix.processID).json"
        try #"{"size": [1920, 1080], "regions": [{"id": "all", "frame": [0, 0, 1920, 1080]}]}"#.write(
            toFile: scene, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scene) }
        // What arrives if nothing is lost: every down, move and up, 10 per frame.
        let fingerFrames = Int(Double(rate) * seconds)
        let expected = 10 * fingerFrames + 10
        let wrapper = strace.map { ["strace", "-I2", "-f", "-qq", "-c", "-o", $0, "-e", "trace=" + writeCallNames] }
        let daemon = try DaemonRun(
            touchd: touchd,
            arguments: [
                "--replay", file, "--scene", scene, "--replay-waits", "\(clients)", "--filter", "off",
            ],
            config: #"{"clients": {"max": 1000, "queueBytes": 16777216}}"#, wrapper: wrapper ?? [])
        var result: FanOut
        do {
            result = try read(daemon, expected)
        } catch {
            daemon.stop()
            throw error
        }
        daemon.stop()
        result.frames = result.received / max(clients, 1) / 10
        if let strace { result.writeCalls = try straceCounts(strace) }
        return result
    }

    static let writeCallNames = "write,writev,sendto,sendmsg"

    /// The calls column of `strace -c` for the write-type calls.
    static func straceCounts(_ path: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for name in writeCallNames.split(separator: ",") { counts[String(name)] = 0 }
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            // % time, seconds, usecs/call, calls, [errors], syscall
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5, let name = fields.last, counts[String(name)] != nil, let calls = Int(fields[3])
            else { continue }
            counts[String(name)] = calls
        }
        return counts
    }

    /// Benchmark 4 as it was first written: a thread per client in this process, each with the TouchClient library.
    static func fanOut(touchd: String, clients: Int, rate: Int, seconds: Double, strace: String? = nil) throws
        -> FanOut
    {
        try withFanOutDaemon(touchd: touchd, clients: clients, rate: rate, seconds: seconds, strace: strace) {
            daemon, expected in
            let results = Mutex<(received: Int, latencies: [Double])>((0, []))
            let done = DispatchGroup()
            let socket = daemon.socket
            let cpuBefore = daemon.cpuTicks
            let readerBefore = cpuTicks("self")
            let wallStart = Measure.nanoseconds()
            for _ in 0..<clients {
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    guard let client = try? TouchClient(path: socket, retry: .init(attempts: 50)),
                        (try? client.subscribe(events: ["touch"]))?.ok == true
                    else { return }
                    var received = 0
                    var latencies: [Double] = []
                    latencies.reserveCapacity(expected)
                    while received < expected, let line = try? client.nextLine() {
                        let now = Double(Measure.nanoseconds()) / 1000
                        received += 1
                        if let stamp = timeField(line) { latencies.append(now - Double(stamp)) }
                    }
                    results.withLock {
                        $0.received += received
                        $0.latencies += latencies
                    }
                }
            }
            _ = done.wait(timeout: .now() + seconds * 4 + 20)
            let wall = Double(Measure.nanoseconds() - wallStart) / 1e9
            let ticks = daemon.cpuTicks - cpuBefore
            let readerTicks = cpuTicks("self") - readerBefore
            let hertz = Double(Posix.clockTicksPerSecond)
            return results.withLock { state in
                let sorted = state.latencies.sorted()
                return FanOut(
                    clients: clients, expected: expected * clients, received: state.received,
                    latencyP50: Measure.percentile(sorted, 50), latencyP99: Measure.percentile(sorted, 99),
                    cpuPercent: Double(ticks) / hertz / wall * 100,
                    readerCPUPercent: Double(readerTicks) / hertz / wall * 100)
            }
        }
    }

    /// `"time_us":N` without a JSON parser: the benchmark client must not be the bottleneck.
    static func timeField(_ line: [UInt8]) -> Int64? { line.withUnsafeBufferPointer { timeField($0) } }

    static let timeKey: [UInt8] = Array("\"time_us\":".utf8)

    /// The same over bytes in place, without allocating: memmem finds the key a vector register at a time (the
    /// epoll reader parses a thousand lines a frame at 100 clients, and a byte-by-byte search made it slower per
    /// socket than the daemon, so that its own lag showed in the latencies).
    static func timeField(_ line: UnsafeBufferPointer<UInt8>) -> Int64? {
        timeKey.withUnsafeBufferPointer { key in
            guard let base = line.baseAddress, line.count > key.count,
                let found = touchd_find_bytes(base, line.count, key.baseAddress!, key.count)
            else { return nil }
            var position = found.assumingMemoryBound(to: UInt8.self) - UnsafePointer(base) + key.count
            var value: Int64 = 0
            while position < line.count, line[position] >= 48, line[position] <= 57 {
                value = value * 10 + Int64(line[position] - 48)
                position += 1
            }
            return value
        }
    }

    /// Benchmark 5: a device (a replay that waits for 100 subscribers, so it never plays), two idle clients.
    static func idle(touchd: String, recording: String, seconds: Double) throws -> Idle {
        let daemon = try DaemonRun(
            touchd: touchd, arguments: ["--replay", recording, "--replay-waits", "100", "--filter", "off"], config: "{}"
        )
        defer { daemon.stop() }
        let first = try TouchClient(path: daemon.socket, retry: .init(attempts: 50))
        let second = try TouchClient(path: daemon.socket, retry: .init(attempts: 50))
        _ = try first.subscribe()
        _ = try second.subscribe()
        Posix.sleep(microseconds: 200_000)
        let before = daemon.status("voluntary_ctxt_switches") + daemon.status("nonvoluntary_ctxt_switches")
        Posix.sleep(microseconds: Int64(seconds * 1_000_000))
        let after = daemon.status("voluntary_ctxt_switches") + daemon.status("nonvoluntary_ctxt_switches")
        let rss = daemon.status("VmRSS")
        _ = (first, second)
        return Idle(seconds: seconds, wakeups: after - before, rssKilobytes: rss)
    }
}
