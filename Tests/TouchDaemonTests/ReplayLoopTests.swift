import Foundation
import Testing
import TouchClient
import TouchJSON
import TouchRecordingFiles
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

private let binariesBuilt =
    FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)
    && FileManager.default.isExecutableFile(atPath: DaemonProcess.touchctl)

/// `touchd run --replay --loop` of a recording that ends with fingers down, and `--desc`.
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

    /// The demo recording's fourth finger goes down at raw (800, 2400) of 0...4095: (250, 468.75) on the 1280 x 800
    /// scene. The knob as the scene file places it (slider at (200, 430), knob at (30, 15) in it, 50 x 50, a circle
    /// touchable 12 beyond) is a circle of radius 37 about (255, 470): 5.2 from the down, so the down is the knob's.
    /// That finger drags the knob 375 to the right (to x 605...655), so a second pass on the scene as the first left
    /// it would miss the knob, and find the background.
    @Test("--loop: each pass plays on the scene as loaded; the knob dragged in the first is back for the second")
    func loopRestoresScene() throws {
        let daemon = try DaemonProcess(arguments: [
            "--replay", DaemonProcess.root + "/config/demo/panel.evemu", "--scene",
            DaemonProcess.root + "/config/demo/scene.json", "--loop", "--speed", "8", "--replay-waits", "1",
        ])
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["touch", "scene"]).ok)
        var downs: [Int: String] = [:]
        var sceneChanges: [String] = []
        var lines = 0
        // Ten fingers a pass: the fourth of the third pass is finger 24.
        while downs[24] == nil, lines < 5000, let line = try client.nextLine() {
            lines += 1
            guard let value = try? JSONParser.parse(line), case .string(let type, _)? = value["type"] else { continue }
            if type == "scene-changed", case .string(let source, _)? = value["source"] {
                sceneChanges.append(source)
            } else if type == "down", case .number(let finger, _)? = value["finger"] {
                if case .string(let region, _)? = value["region"] {
                    downs[Int(finger)] = region
                } else {
                    downs[Int(finger)] = ""
                }
            }
        }
        #expect(downs[4] == "knob")
        #expect(downs[14] == "knob", "the second pass's knob down")
        #expect(downs[24] == "knob", "the third pass's")
        // Told before each later pass, as of any scene change.
        #expect(
            sceneChanges == [
                "replay pass 2 (the installed scene, drags undone)",
                "replay pass 3 (the installed scene, drags undone)",
            ])
    }

    /// The two fingers go down on the demo scene's background (at (389, 368) and (731, 170), away from the knob and
    /// the slider) and drag nothing: each pass ends with the scene as installed.
    @Test("--loop over a scene nothing moved: no scene change between passes")
    func loopWithoutDragsKeepsScene() throws {
        let daemon = try DaemonProcess(arguments: [
            "--replay", Self.twoFingersDown, "--scene", DaemonProcess.root + "/config/demo/scene.json", "--loop",
            "--speed", "4", "--replay-waits", "1",
        ])
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["touch", "scene"]).ok)
        var types: [String] = []
        // Three passes: their six fingers' cancels.
        while types.filter({ $0 == "cancel" }).count < 6, types.count < 2000, let line = try client.nextLine() {
            guard let value = try? JSONParser.parse(line), case .string(let type, _)? = value["type"] else { continue }
            types.append(type)
        }
        #expect(types.filter { $0 == "cancel" }.count == 6)
        #expect(!types.contains("scene-changed"))
    }

    @Test(
        "--loop over a file that changes: the next pass stops the replay with an error naming it; the daemon serves on")
    func loopStopsWhenTheFileChanges() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-grow-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/tap.evemu"
        try """
        # EVEMU 1.3
        N: tap
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

        """.write(toFile: path, atomically: false, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--replay", path, "--loop", "--replay-waits", "1"])
        defer { daemon.stop() }
        let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
        #expect(try client.subscribe(events: ["touch"]).ok)
        var ups = 0
        while ups < 2, let line = try client.nextLine() {
            if String(decoding: line, as: UTF8.self).contains(#""type":"up""#) { ups += 1 }
        }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("E: 2.000000 0000 0000 0\n".utf8))
        try handle.close()
        #expect(daemon.logWillContain("replay stopped: \(path): changed since its first pass"))
        #expect(daemon.process.isRunning)
        let ping = try DaemonProcess.run(DaemonProcess.touchctl, ["--socket", daemon.socket, "ping"])
        #expect(ping.status == 0)
    }

    /// One finger down, then `frames` frames of a move on both axes, 1 ms apart: 3 events a frame.
    static func longRecording(frames: Int) -> [UInt8] {
        var text = Array(
            """
            # EVEMU 1.3
            N: long
            A: 2f 0 9 0 0 0
            A: 35 0 4095 0 0 0
            A: 36 0 4095 0 0 0
            A: 39 0 65535 0 0 0
            E: 0.000000 0003 0039 1

            """.utf8)
        text.reserveCapacity(frames * 75 + text.count)
        for frame in 0..<frames {
            let time = "\(frame / 1000).\(String(1_000_000 + frame % 1000 * 1000).dropFirst())"
            let position = 100 + frame % 3000
            text += Array(
                "E: \(time) 0003 0035 \(position)\nE: \(time) 0003 0036 \(position)\nE: \(time) 0000 0000 0\n".utf8)
        }
        return text
    }

    /// 170,000 frames, 510,001 events in a 16 MB file: loaded whole, its events alone are 12 MB (24 bytes each). Read
    /// a batch at a time, the daemon holds 4,096 of them: its memory is that of a daemon replaying 10 frames, give or
    /// take 6 MB (allocator and page noise, and the client's queue when the replay outruns it), opened and played to
    /// its end.
    @Test("a long recording is replayed as a stream: the daemon's memory is that of a short one's")
    func longRecordingStreams() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-long-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var resident: [Int] = []
        for frames in [10, 170_000] {
            let path = directory + "/long-\(frames).evemu"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.longRecording(frames: frames))))
            let daemon = try DaemonProcess(arguments: [
                "--replay", path, "--speed", "200", "--replay-waits", "1", "--filter", "off",
            ])
            defer { daemon.stop() }
            let opened = try #require(daemon.residentKilobytes)
            let client = try TouchClient(path: daemon.socket, retry: .init(attempts: 10))
            #expect(try client.subscribe(events: ["touch"]).ok)
            // To the end: the finger is still down there, and ends with cancel (moves may be coalesced, a cancel never).
            var ended = false
            while !ended, let line = try client.nextLine() {
                ended = String(decoding: line, as: UTF8.self).contains(#""type":"cancel""#)
            }
            #expect(ended)
            let played = try #require(daemon.residentKilobytes)
            resident.append(max(opened, played))
        }
        #expect(resident[1] - resident[0] < 6 * 1024, "resident kB: \(resident)")
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
