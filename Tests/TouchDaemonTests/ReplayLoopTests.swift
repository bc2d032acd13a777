import Foundation
import Testing
import TouchClient
import TouchJSON
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

private let binariesBuilt =
    FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)
    && FileManager.default.isExecutableFile(atPath: DaemonProcess.touchctl)

/// `touchd run --replay --loop` of a recording that ends with fingers down (issue 11, item 6), and `--desc`.
@Suite(
    "Daemon replay loops", .serialized, .enabled(if: binariesBuilt, "touchd and touchctl must be built first"),
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct ReplayLoopTests {
    /// Two fingers go down and are still down at the file's end, 0.272 s in (docs of EndOfStreamTests).
    static let twoFingersDown = SharedRecordings.path(
        "xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-down.events")

    struct Touch {
        var type: String
        var finger: Int
    }

    /// Reads touch events until `cancels` cancels arrived or `limit` lines were read.
    func touches(_ client: TouchClient, cancels: Int, limit: Int = 400) throws -> [Touch] {
        var result: [Touch] = []
        var lines = 0
        while result.filter({ $0.type == "cancel" }).count < cancels, lines < limit, let line = try client.nextLine() {
            lines += 1
            guard let value = try? JSONParser.parse(String(decoding: line, as: UTF8.self)),
                case .string(let type, _)? = value["type"], ["down", "move", "up", "cancel"].contains(type),
                case .number(let finger, _)? = value["finger"]
            else { continue }
            result.append(Touch(type: type, finger: Int(finger)))
        }
        return result
    }

    /// Moves of one pass of the two-finger recording as `touchd replay` reports them, with and without the filter.
    func replayMoves(filter: String) throws -> Int {
        let result = try DaemonProcess.run(
            DaemonProcess.touchd, ["replay", "--filter", filter, "-q", Self.twoFingersDown], timeout: 30)
        return result.out.split(separator: "\n").filter { $0.contains(#""type":"move""#) }.count
    }

    @Test("--filter sets the replayed device's jitter filter: off reports the moves the default one holds back")
    func replayFilter() throws {
        let unfiltered = try replayMoves(filter: "off")
        let filtered = try replayMoves(filter: "fuzz")
        #expect(filtered < unfiltered)  // otherwise this recording shows nothing about the option
        for (option, expected) in [("off", unfiltered), ("fuzz", filtered)] {
            let daemon = try DaemonProcess(arguments: [
                "--replay", Self.twoFingersDown, "--speed", "4", "--replay-waits", "1", "--filter", option,
            ])
            defer { daemon.stop() }
            let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
            #expect(try client.subscribe(events: ["touch"]).ok)
            let seen = try touches(client, cancels: 2)
            #expect(seen.filter { $0.type == "move" }.count == expected, "--filter \(option)")
        }
        let refused = try DaemonProcess.run(DaemonProcess.touchd, ["run", "--filter", "off"], timeout: 10)
        #expect(refused.status == 64)
        #expect(refused.err.contains("--replay (needed by --filter"))
    }

    @Test("each pass ends its fingers with cancel; the next pass has new fingers, none continues across")
    func passesEndWithCancels() throws {
        let daemon = try DaemonProcess(arguments: [
            "--replay", Self.twoFingersDown, "--loop", "--speed", "4", "--replay-waits", "1",
        ])
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["touch"]).ok)
        let seen = try touches(client, cancels: 6)
        // Three passes: fingers 1-2, 3-4, 5-6, each down, moved, then cancelled; never an up.
        #expect(seen.filter { $0.type == "down" }.map(\.finger) == [1, 2, 3, 4, 5, 6])
        #expect(seen.filter { $0.type == "cancel" }.map(\.finger) == [1, 2, 3, 4, 5, 6])
        #expect(!seen.contains { $0.type == "up" })
        var live: Set<Int> = []
        for touch in seen {
            switch touch.type {
            case "down": #expect(live.insert(touch.finger).inserted)
            case "cancel": #expect(live.remove(touch.finger) != nil)
            default: #expect(live.contains(touch.finger), "\(touch.type) for finger \(touch.finger), not down")
            }
        }
    }

    @Test("a loop whose last time is before its first paces at 10 ms a pass at least, without spinning")
    func backwardsLoopDoesNotSpin() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-loop-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A tap (down, up) at 1.000/1.005, then a last event 0.5 s before the first.
        let path = directory + "/backwards.evemu"
        try """
        # EVEMU 1.3
        N: backwards
        A: 2f 0 9 0 0 0
        A: 35 0 4095 0 0 0
        A: 36 0 4095 0 0 0
        A: 39 0 65535 0 0 0
        E: 1.000000 0003 0039 1
        E: 1.000000 0003 0035 100
        E: 1.000000 0003 0036 100
        E: 1.000000 0000 0000 0
        E: 1.005000 0003 0039 -1
        E: 1.005000 0000 0000 0
        E: 0.500000 0000 0000 0

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--replay", path, "--loop", "--replay-waits", "1"])
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["touch"]).ok)
        var downTimes: [Int64] = []
        while downTimes.count < 5, let line = try client.nextLine() {
            guard let value = try? JSONParser.parse(line), value["type"] == .string("down", line: 1),
                case .number(let time, _)? = value["time_us"]
            else { continue }
            downTimes.append(Int64(time))
        }
        // A pass is 5 ms of events plus the 10 ms gap: each down is stamped at least 15 ms after the one before, on
        // the daemon's clock (the stamps, not this process's receipt times, which load can bunch up).
        #expect(downTimes.count == 5)
        for (earlier, later) in zip(downTimes, downTimes.dropFirst()) { #expect(later - earlier >= 15_000) }
        usleep(300_000)
        // CPU: a spinning loop would use the whole 0.3 s; the daemon sleeps between passes.
        let stat = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/stat", encoding: .utf8)
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)  // utime + stime, in 1/100 s
        #expect(ticks < 20, "the daemon used \(ticks) ticks of CPU")
    }

    @Test("--desc gives an events-only recording its description, as touchd replay --desc does")
    func descOption() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-desc-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Alone in a folder, the events have no sibling description.
        let events = directory + "/events-only.events"
        try FileManager.default.copyItem(atPath: Self.twoFingersDown, toPath: events)
        let desc = SharedRecordings.path("xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.desc")
        let daemon = try DaemonProcess(arguments: ["--replay", events, "--desc", desc])
        defer { daemon.stop() }
        let devices = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", daemon.socket, "devices"])
        #expect(devices.out.contains("SynPS/2 Synaptics TouchPad"), "\(devices.out)")

        let alone = try DaemonProcess.run(DaemonProcess.touchd, ["run", "--desc", desc])
        #expect(alone.status == 64)
        #expect(alone.err.contains("--replay (needed by --desc)"))
    }
}
