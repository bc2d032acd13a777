import Foundation
import TouchCore
import TouchFormats
import TouchPosix
import TouchRecordingFiles
import TouchWire

/// touchd-bench: the benchmarks of docs/performance.md. Build in release mode; scripts/bench.sh runs them all.
///
///     touchd-bench make-looped OUT.evemu OUT.raw EVENTS RECORDING...
///     touchd-bench make-fingers OUT.evemu RATE SECONDS
///     touchd-bench pipeline FILE.evemu [REGIONS]
///     touchd-bench decoder FILE.raw DESCRIPTION.evemu
///     touchd-bench hittest [QUERIES]
///     touchd-bench fanout TOUCHD CLIENTS [RATE SECONDS] [--strace FILE]
///     touchd-bench fanout-epoll TOUCHD CLIENTS [RATE SECONDS] [--strace FILE]
///     touchd-bench idle TOUCHD RECORDING [SECONDS]
///     touchd-bench edits REGIONS COUNT            (in process: one client's update-region requests)
///     touchd-bench refused-scenes TAPS COUNT      (in process: set-scene from a client without the permission)
///     touchd-bench stall TOUCHD edits|refused-scenes|none [REGIONS SECONDS]   (the daemon: touches under attack)
///     touchd-bench flood SOCKET COUNT              (the stall benchmark's unprivileged attacker)
/// `--strace FILE` (fan-out): the daemon runs under `strace -f -c`, which writes its counts there.
let (arguments, straceFile): ([String], String?) = {
    var all = Array(CommandLine.arguments.dropFirst())
    guard let option = all.firstIndex(of: "--strace"), option + 1 < all.count else { return (all, nil) }
    let file = all[option + 1]
    all.removeSubrange(option...(option + 1))
    return (all, file)
}()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    Posix.exit(2)
}

func number(_ index: Int, default fallback: Double) -> Double {
    index < arguments.count ? Double(arguments[index]) ?? fallback : fallback
}

do {
    switch arguments.first {
    case "make-looped":
        guard arguments.count >= 5, let count = Int(arguments[3]) else {
            fail("make-looped OUT.evemu OUT.raw EVENTS RECORDING...")
        }
        let recording = try BenchRecordings.looped(Array(arguments[4...]), minimumEvents: count)
        try EvemuWriter.write(description: recording.description, events: recording.events).write(
            toFile: arguments[1], atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: arguments[2], contents: Data(RawEventReader.write(recording.events)))
        print("wrote \(recording.events.count) events")
    case "make-fingers":
        guard arguments.count >= 4, let rate = Int(arguments[2]), let seconds = Double(arguments[3]) else {
            fail("make-fingers OUT.evemu RATE SECONDS")
        }
        let recording = BenchRecordings.tenFingers(rate: rate, seconds: seconds)
        try EvemuWriter.write(
            description: recording.description, events: recording.events, timeBase: .relativeToFirstEvent
        )
        .write(toFile: arguments[1], atomically: true, encoding: .utf8)
        print("wrote \(recording.events.count) events")
    case "edits", "refused-scenes":
        guard arguments.count >= 3, let size = Int(arguments[1]), let count = Int(arguments[2]) else {
            fail("edits REGIONS COUNT | refused-scenes TAPS COUNT")
        }
        let editing = arguments[0] == "edits"
        let costs =
            editing
            ? EditBenchmarks.run(
                regions: size, lines: EditBenchmarks.updateLines(regions: size, count: count),
                credentials: PeerCredentials(pid: 1, uid: 0, gid: 0, groups: [0]))
            : EditBenchmarks.run(
                regions: 10, lines: Array(repeating: EditBenchmarks.bigSetScene(taps: size), count: count),
                credentials: PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [1000]))
        print(
            "\(arguments[0]) \(size) requests \(costs.requests) mean_us \(Measure.format(costs.meanMicroseconds)) max_us \(Measure.format(costs.maxMicroseconds)) pipelined_turn_max_us \(Measure.format(costs.pipelinedTurnMaxMicroseconds))"
        )
    case "stall":
        guard arguments.count >= 3, let attack = StallBenchmarks.Attack(rawValue: arguments[2]) else {
            fail("stall TOUCHD edits|refused-scenes|none [REGIONS SECONDS]")
        }
        let result = try StallBenchmarks.run(
            touchd: arguments[1], bench: CommandLine.arguments[0], attack: attack,
            regions: Int(number(3, default: 10_000)), seconds: number(4, default: 3))
        print(
            "stall \(attack.rawValue) touches \(result.touches) p99_us \(Measure.format(result.latencyP99, decimals: 0)) max_us \(Measure.format(result.latencyMax, decimals: 0)) worst_gap_us \(Measure.format(result.worstGapMicroseconds, decimals: 0)) requests \(result.requestsSent) exit_ms \(Measure.format(result.exitMilliseconds))"
        )
    case "flood":
        guard arguments.count >= 3, let count = Int(arguments[2]) else { fail("flood SOCKET COUNT") }
        print("flood sent \(StallBenchmarks.flood(socket: arguments[1], count: count))")
    case "pipeline":
        guard arguments.count >= 2 else { fail("pipeline FILE.evemu [REGIONS]") }
        let result = try PipelineBenchmarks.pipeline(file: arguments[1], regions: Int(number(2, default: 50)))
        print(
            "pipeline \(result.events) events \(Measure.format(result.seconds, decimals: 4)) s \(Measure.format(Double(result.events) / result.seconds, decimals: 0)) events/s \(result.outputBytes) bytes \(result.writes) writes \(result.frames) frames \(result.allocations) allocations after warm-up"
        )
    case "decoder":
        guard arguments.count >= 3 else { fail("decoder FILE.raw DESCRIPTION.evemu") }
        let description = try RecordingLoader.loadDescription(arguments[2])
        let result = try PipelineBenchmarks.decoder(rawFile: arguments[1], description: description)
        let rate = Double(result.events) / result.seconds
        print(
            "decoder \(result.events) events \(result.frames) frames \(Measure.format(rate, decimals: 0)) events/s \(Measure.format(1e9 / rate, decimals: 2)) ns/event \(Measure.format(result.allocationsPerFrame, decimals: 3)) allocations/frame"
        )
    case "hittest":
        let queries = Int(number(1, default: 20000))
        for regions in [10, 100, 1000, 10000] {
            let r = HitTestBenchmark.run(regions: regions, queries: queries)
            print(
                "hittest \(regions) regions grid p50 \(Measure.format(r.gridP50)) ns p99 \(Measure.format(r.gridP99)) ns scan p50 \(Measure.format(r.scanP50)) ns p99 \(Measure.format(r.scanP99)) ns speedup p99 \(Measure.format(r.scanP99 / max(r.gridP99, 1), decimals: 1))x"
            )
        }
    case "fanout", "fanout-epoll":
        guard arguments.count >= 3, let clients = Int(arguments[2]) else {
            fail("\(arguments[0]) TOUCHD CLIENTS [RATE SECONDS] [--strace FILE]")
        }
        let rate = Int(number(3, default: 240))
        let seconds = number(4, default: 5)
        let r =
            arguments[0] == "fanout"
            ? try DaemonBenchmarks.fanOut(
                touchd: arguments[1], clients: clients, rate: rate, seconds: seconds, strace: straceFile)
            : try EpollFanOut.run(
                touchd: arguments[1], clients: clients, rate: rate, seconds: seconds, strace: straceFile)
        var line =
            "\(arguments[0]) \(clients) clients expected \(r.expected) received \(r.received) lost \(r.expected - r.received) latency p50 \(Measure.format(r.latencyP50)) us p99 \(Measure.format(r.latencyP99)) us cpu \(Measure.format(r.cpuPercent)) % reader-cpu \(Measure.format(r.readerCPUPercent)) % frames \(r.frames) p90 \(Measure.format(r.latencyP90)) us max \(Measure.format(r.latencyMax)) us wake-late-p99 \(Measure.format(r.wakeUpLatenessP99)) us"
        if straceFile != nil {
            let calls = r.writeCalls.values.reduce(0, +)
            line +=
                " write-calls \(calls) \(r.writeCalls.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"
        }
        print(line)
    case "idle":
        guard arguments.count >= 3 else { fail("idle TOUCHD RECORDING [SECONDS]") }
        let r = try DaemonBenchmarks.idle(
            touchd: arguments[1], recording: arguments[2], seconds: number(3, default: 10))
        print(
            "idle \(Measure.format(r.seconds)) s wakeups \(r.wakeups) (\(Measure.format(Double(r.wakeups) / r.seconds, decimals: 2))/s) rss \(r.rssKilobytes) kB"
        )
    default:
        fail("touchd-bench make-looped | make-fingers | pipeline | decoder | hittest | fanout | fanout-epoll | idle")
    }
} catch {
    fail("touchd-bench: \(error)")
}
