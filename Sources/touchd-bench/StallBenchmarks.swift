import Foundation
import TouchClient
import TouchPosix
import TouchScene

/// How long one client's requests hold up touches for another, the daemon as a process: a subscriber reads the
/// touches of a 100 Hz replay while an attacker pipelines requests as fast as the socket takes them; then SIGTERM
/// while the attack goes on, and how long the daemon takes to exit.
enum StallBenchmarks {
    enum Attack: String {
        /// A permitted client (root) pipelines update-region requests on a scene of `regions` regions.
        case edits
        /// A client without the scene permission (nobody, through setpriv) floods 230 kB set-scenes.
        case refusedScenes = "refused-scenes"
        /// No attacker: the daemon's own latency on the same scene, for comparison.
        case none
    }

    struct Result {
        var touches: Int
        var latencyP99: Double
        /// The worst delay of a touch: its arrival against its time (microseconds).
        var latencyMax: Double
        /// The longest interval between two touch lines' arrivals, less the recording's own (10 ms).
        var worstGapMicroseconds: Double
        var requestsSent: Int
        var exitMilliseconds: Double
    }

    static func run(touchd: String, bench: String, attack: Attack, regions: Int, seconds: Double) throws -> Result {
        var factory = SceneFactory(seed: 11)
        let scene = factory.scene(count: regions, width: 1920, height: 1080)
        let scenePath = NSTemporaryDirectory() + "touchd-bench-stall-\(Posix.processID).json"
        try Data(SceneEncoder.encode(scene)).write(to: URL(fileURLWithPath: scenePath))
        defer { try? FileManager.default.removeItem(atPath: scenePath) }
        let recording = BenchRecordings.tenFingers(rate: 100, seconds: seconds)
        let file = NSTemporaryDirectory() + "touchd-bench-stall-\(Posix.processID).evemu"
        try DaemonBenchmarks.writeRecording(recording, to: file)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let daemon = try DaemonBenchmarks.DaemonRun(
            touchd: touchd,
            arguments: ["--replay", file, "--scene", scenePath, "--replay-waits", "1", "--filter", "off"],
            config: #"{"socket": {"mode": "0666"}, "clients": {"queueBytes": 16777216}}"#)
        defer { daemon.stop() }
        // The attacker as nobody must reach the socket.
        _ = chmod(daemon.directory, 0o755)

        let attacker = try startAttack(attack, daemon: daemon, bench: bench, regions: regions)
        Posix.sleep(microseconds: 300_000)  // the attack is under way before the touches start
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 50))
        _ = try client.subscribe(events: ["touch"])
        let expected = 10 * Int(100 * seconds) + 10
        var latencies: [Double] = []
        var lastArrival: Double?
        var worstGap = 0.0
        while latencies.count < expected, let line = try client.nextLine() {
            let now = Double(Measure.nanoseconds()) / 1000
            if let stamp = DaemonBenchmarks.timeField(line) { latencies.append(now - Double(stamp)) }
            if let lastArrival { worstGap = max(worstGap, now - lastArrival - 10_000) }
            lastArrival = now
        }
        let stopStart = Measure.nanoseconds()
        daemon.process.terminate()
        daemon.process.waitUntilExit()
        let exitMilliseconds = Double(Measure.nanoseconds() - stopStart) / 1e6
        let sent = attacker.finish()
        let sorted = latencies.sorted()
        return Result(
            touches: latencies.count, latencyP99: Measure.percentile(sorted, 99), latencyMax: sorted.last ?? .nan,
            worstGapMicroseconds: max(worstGap, 0), requestsSent: sent, exitMilliseconds: exitMilliseconds)
    }

    /// The attacking side, running until `finish`.
    final class Attacker {
        let stop: () -> Int
        init(stop: @escaping () -> Int) { self.stop = stop }
        func finish() -> Int { stop() }
    }

    static func startAttack(_ attack: Attack, daemon: DaemonBenchmarks.DaemonRun, bench: String, regions: Int) throws
        -> Attacker
    {
        switch attack {
        case .none:
            return Attacker { 0 }
        case .edits:
            let lines = EditBenchmarks.updateLines(regions: regions, count: 10_000)
            let socket = daemon.socket
            let sent = Counter()
            let thread = Thread { _ = pipeline(lines, to: socket, counting: sent) }
            thread.start()
            return Attacker { sent.value }
        case .refusedScenes:
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid=65534", "--regid=65534", "--clear-groups", bench, "flood", daemon.socket, "1000",
            ]
            process.standardOutput = Pipe()
            try process.run()
            return Attacker {
                process.terminate()
                process.waitUntilExit()
                return -1
            }
        }
    }

    final class Counter: @unchecked Sendable { var value = 0 }

    /// Writes every line as fast as the socket takes them while a second thread reads and drops the replies;
    /// returns how many lines were written (the daemon may close or stop first).
    static func pipeline(_ lines: [[UInt8]], to socket: String, counting counter: Counter? = nil) -> Int {
        guard let fd = try? Posix.connect(unixSocket: socket) else { return 0 }
        // Blocking writes: the attacker writes as fast as the daemon reads, never giving up on a full socket.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while buffer.withUnsafeMutableBytes({ Glibc.read(fd, $0.baseAddress, $0.count) }) > 0 {}
        }
        reader.start()
        var sent = 0
        for line in lines {
            guard (try? Posix.writeAll(fd, line)) != nil else { break }
            sent += 1
            counter?.value = sent
        }
        return sent
    }

    /// `touchd-bench flood SOCKET COUNT`: the unprivileged attacker's process.
    static func flood(socket: String, count: Int) -> Int {
        pipeline(Array(repeating: EditBenchmarks.bigSetScene(taps: 6_000), count: count), to: socket)
    }
}
