import Foundation
import TouchClient
import TouchJSON
import TouchPosix
import TouchVersion
import TouchView

/// touchctl: talk to touchd over its socket.
///
///     touchctl [--socket PATH] [--timeout SECONDS] monitor [--raw] [--events touch,gesture] [--regions a,b]
///         [--fields raw_x,raw_y] [--count N]
///     touchctl [--socket PATH] view [--no-color]
///     touchctl [--socket PATH] calibrate [--device KEY] [--config FILE] [--udev] [--yes] [--threshold FRACTION]
///     touchctl [--socket PATH] ping | devices
///     touchctl [--socket PATH] scene get | scene set FILE
///     touchctl [--socket PATH] region update ID key=value... | region add [--parent ID] JSON | region remove ID
let usage = """
    usage: touchctl [--socket PATH] [--timeout SECONDS] COMMAND

    commands:
      monitor [--raw] [--events K,K] [--regions ID,ID] [--devices D,D] [--fields F,F] [--count N]
                           print events as they come (text, or the raw NDJSON lines); --fields: the keys of
                           touch and gesture lines wanted beyond their core ('' for the core alone)
      view [--no-color]    the scene, its live fingers and the last gestures, live in the terminal (q quits)
      calibrate [--device KEY] [--config FILE] [--udev] [--yes] [--threshold FRACTION]
                           in a terminal filling the panel: tap five targets, get the calibration matrix
                           (mis-taps asked again), and write the device's rule to --config (default
                           /etc/touchd/touchd.json) on confirmation, or print a udev rule with --udev
      ping                 check the daemon answers
      devices              list the devices touchd reads
      scene get            print the scene in force (JSON)
      scene set FILE       replace the scene with FILE (- reads standard input)
      region update ID key=value ...
                           change fields of a region (values are JSON; bare words are strings)
      region add [--parent ID] JSON
                           add a region (JSON object) at the top or inside a parent
      region remove ID     remove a region and its children

    The socket is $TOUCHD_SOCKET, or /run/touchd/touchd.sock. A request that gets no reply within
    --timeout seconds (default 10) fails instead of waiting for ever. monitor runs until --count events are
    printed; touchd going away before that is an error (69), with touchd's reason on stderr.

    """ + ExitStatus.help + "\n\n" + TouchdVersion.helpLine

func fail(_ message: String, status: Int32) -> Never {
    StandardStreams.write(Array(("touchctl: " + message + "\n").utf8), to: 2)
    Posix.exit(status)
}

/// A failure talking to touchd: its description may quote the daemon (a goodbye's message), so it is escaped.
func fail(_ error: any Error, during command: String? = nil) -> Never {
    let text = printable("\(error)")
    let message = command.map { "\($0): \(text)" } ?? text
    switch error {
    case let error as ClientError: fail(message, status: ExitStatus.of(error))
    // The view's own system calls (its terminal, event loop, pipe) fail as SystemError; its socket as ClientError.
    case is SystemError where command == "view": fail(message, status: ExitStatus.osError)
    case let error as SystemError: fail(message, status: ExitStatus.of(error))
    case let error as ViewError: fail(message, status: error.exitStatus)
    default: fail(message, status: ExitStatus.protocolError)
    }
}

/// A line of output; when standard output cannot take it (a full disk), touchctl ends with EX_IOERR.
func out(_ text: String) {
    out(Array((text + "\n").utf8))
}

func out(_ bytes: [UInt8]) {
    do throws(SystemError) {
        try StandardStreams.output(bytes)
    } catch {
        fail("standard output: \(error)", status: ExitStatus.ioError)
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
let socketPath: String = {
    guard let index = arguments.firstIndex(of: "--socket") else {
        return Posix.environment("TOUCHD_SOCKET") ?? TouchClient.defaultSocketPath
    }
    guard index + 1 < arguments.count else { fail("--socket needs a path", status: ExitStatus.usage) }
    let path = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    return path
}()
let replyTimeoutMilliseconds: Int = {
    guard let index = arguments.firstIndex(of: "--timeout") else { return 10_000 }
    guard index + 1 < arguments.count, let seconds = Double(arguments[index + 1]), seconds > 0, seconds < 1e6 else {
        fail("--timeout needs a positive number of seconds", status: ExitStatus.usage)
    }
    arguments.removeSubrange(index...(index + 1))
    return max(1, Int(seconds * 1000))
}()
guard let command = arguments.first else { fail(usage, status: ExitStatus.usage) }
if TouchdVersion.isRequest(command) {
    out(TouchdVersion.versionLine(program: "touchctl"))
    Posix.exit(0)
}
if command == "--help" || command == "-h" || command == "help" {
    out(usage)
    Posix.exit(0)
}
let rest = Array(arguments.dropFirst())

func option(_ name: String, in list: [String]) -> String? {
    guard let index = list.firstIndex(of: name), index + 1 < list.count else { return nil }
    return list[index + 1]
}

func connect(_ path: String) -> TouchClient {
    do {
        return try TouchClient(
            path: path, retry: TouchClient.RetryPolicy(attempts: 3), timeoutMilliseconds: replyTimeoutMilliseconds)
    } catch {
        fail(error)
    }
}

/// An error reply ends touchctl with the daemon's code and message (escaped) and the code's exit status.
func check(_ reply: Message.Reply) {
    guard reply.ok else {
        fail(
            printable("\(reply.errorCode ?? "error"): \(reply.errorMessage ?? "")"),
            status: ExitStatus.ofReply(code: reply.errorCode))
    }
}

/// A JSON value from the daemon as one line, terminal-safe.
func render(_ value: JSONValue) -> String { String(decoding: terminalSafeJSON(value.compactJSON), as: UTF8.self) }

/// JSON text as one line (a scene file, a region), or a clear error naming where it is wrong.
func compactJSON(_ bytes: [UInt8], what: String) -> [UInt8] {
    do {
        return try TouchClient.compact(bytes)
    } catch {
        fail("\(what): \(error)", status: ExitStatus.dataError)
    }
}

func describe(_ message: Message) -> String? {
    switch message {
    case .touch(let t):
        // Only what the line holds: a subscription's `fields` may leave out the device, the region and the local
        // position, and a region left out is not a finger on no region ("-").
        var text = t.json["device"] == nil ? "" : printable(t.device) + " "
        text += "\(t.phase.uppercased().padding(toLength: 7, withPad: " ", startingAt: 0)) finger \(t.finger)"
        if t.json["region"] != nil { text += "  " + printable(t.region ?? "-") }
        text += String(format: "  %.1f/%.1f", t.x, t.y)
        if let localX = t.localX, let localY = t.localY { text += String(format: "  local %.1f/%.1f", localX, localY) }
        return text + (t.taps > 1 ? "  taps \(t.taps)" : "")
    case .gesture(let g):
        return "gesture \(printable(g.name)) \(printable(g.state))  \(printable(g.region))  "
            + String(format: "%.1f/%.1f", g.x, g.y)
    case .regionMoved(let region, let frame):
        return "region \(printable(region)) moved to \(frame.map { String(format: "%.1f", $0) }.joined(separator: " "))"
    case .deviceAdded(let device, let name): return "device \(printable(device)) added: \(printable(name))"
    case .deviceRemoved(let device): return "device \(printable(device)) removed"
    case .sceneChanged(let version, let source): return "scene version \(version) from \(printable(source))"
    case .goodbye(let code, let text): return "touchd says goodbye: \(printable(code)): \(printable(text))"
    case .frame, .hello, .reply, .other: return nil
    }
}

switch command {
case "monitor":
    let client = connect(socketPath)
    let list = { (name: String) in option(name, in: rest)?.split(separator: ",").map(String.init) ?? [] }
    let count = option("--count", in: rest).flatMap(Int.init)
    do {
        // Present but empty (`--fields ''`) selects the core keys alone; absent, lines come whole.
        let fields = option("--fields", in: rest).map { _ in list("--fields") }
        check(
            try client.subscribe(
                events: list("--events"), regions: list("--regions"), devices: list("--devices"), fields: fields))
        var seen = 0
        // Why the stream ended, when touchd ended it: only --count's last event ends monitor with success.
        var goodbye: String?
        if rest.contains("--raw") {
            while let line = try client.nextLine() {
                out(terminalSafeJSON(line) + [UInt8(ascii: "\n")])
                seen += 1
                if let count, seen >= count { Posix.exit(ExitStatus.success) }
            }
        } else {
            while let message = try client.next() {
                if case .goodbye(let code, let text) = message { goodbye = "touchd said goodbye: \(code): \(text)" }
                if let text = describe(message) {
                    out(text)
                    seen += 1
                }
                if let count, seen >= count { Posix.exit(ExitStatus.success) }
            }
        }
        fail("monitor: " + printable(goodbye ?? "touchd closed the connection"), status: ExitStatus.unavailable)
    } catch {
        fail(error, during: "monitor")
    }
case "calibrate":
    var options = CalibrateCommand.Options()
    var index = 0
    while index < rest.count {
        let option = rest[index]
        let needsValue = ["--device", "--config", "--threshold"].contains(option)
        guard !needsValue || index + 1 < rest.count else {
            fail("calibrate: \(option) needs a value", status: ExitStatus.usage)
        }
        switch option {
        case "--device": options.device = rest[index + 1]
        case "--config": options.config = rest[index + 1]
        case "--threshold":
            guard let value = Double(rest[index + 1]), value > 0, value < 1 else {
                fail(
                    "calibrate: --threshold needs a fraction of the display, above 0 and below 1",
                    status: ExitStatus.usage)
            }
            options.threshold = value
        case "--udev": options.udev = true
        case "--yes": options.assumeYes = true
        default: fail("calibrate: unknown option '\(printable(option))'", status: ExitStatus.usage)
        }
        index += needsValue ? 2 : 1
    }
    let client = connect(socketPath)
    do {
        Posix.exit(try CalibrateCommand.run(client: client, options: options))
    } catch let failure as CalibrateCommand.Failure {
        fail("calibrate: \(failure)", status: failure.exitStatus)
    } catch {
        fail(error, during: "calibrate")
    }
case "view":
    if let unknown = rest.first(where: { $0 != "--no-color" }) {
        fail("view: unknown option '\(unknown)'", status: ExitStatus.usage)
    }
    let client = connect(socketPath)
    let colour =
        !rest.contains("--no-color") && ANSIEncoder.usesColour(environment: { Posix.environment($0) })
    do {
        Posix.exit(try ViewCommand.run(client: client, colour: colour))
    } catch {
        fail(error, during: "view")
    }
case "ping":
    let client = connect(socketPath)
    do {
        check(try client.request(op: "ping"))
        out("touchd answers: \(printable(client.hello.server)), protocol \(client.hello.protocolVersion)")
    } catch {
        fail(error)
    }
case "devices":
    let client = connect(socketPath)
    do {
        let reply = try client.request(op: "devices")
        check(reply)
        if case .array(let devices, _)? = reply.json["devices"] {
            if devices.isEmpty { out("no devices") }
            for device in devices { out(render(device)) }
        }
    } catch {
        fail(error)
    }
case "scene":
    let client = connect(socketPath)
    do {
        switch rest.first {
        case "get":
            let reply = try client.request(op: "get-scene")
            check(reply)
            out(reply.json["scene"].map(render) ?? "")
        case "set":
            guard rest.count == 2 else { fail("scene set FILE", status: ExitStatus.usage) }
            let bytes: [UInt8]
            do {
                bytes = try FileReader.read(rest[1], standardInput: true)
            } catch {
                fail("\(error)", status: ExitStatus.noInput)
            }
            let scene = compactJSON(bytes, what: rest[1])
            let reply = try client.request(op: "set-scene") { $0.rawField("scene", scene) }
            check(reply)
            out("scene set: version \(reply.json["version"].map(render) ?? "?")")
        default:
            fail("scene get | scene set FILE", status: ExitStatus.usage)
        }
    } catch {
        fail(error)
    }
case "region":
    let client = connect(socketPath)
    do {
        switch rest.first {
        case "update":
            guard rest.count >= 3 else { fail("region update ID key=value ...", status: ExitStatus.usage) }
            var fields: [(String, [UInt8])] = []
            for pair in rest.dropFirst(2) {
                guard let equals = pair.firstIndex(of: "=") else {
                    fail("'\(pair)' is not key=value", status: ExitStatus.usage)
                }
                let key = String(pair[..<equals])
                let text = String(pair[pair.index(after: equals)...])
                if let parsed = try? JSONParser.parse(text) {
                    fields.append((key, parsed.compactJSON))
                } else {
                    var writer = JSONWriter()
                    writer.element(text)
                    fields.append((key, writer.bytes))
                }
            }
            let reply = try client.request(op: "update-region") { writer in
                writer.field("region", rest[1])
                writer.key("set")
                writer.beginObject()
                for (key, value) in fields { writer.rawField(string: key, value) }
                writer.endObject()
            }
            check(reply)
            out("updated \(rest[1])")
        case "add":
            let parent = option("--parent", in: rest)
            guard let json = rest.dropFirst().last, rest.count >= 2 else {
                fail("region add [--parent ID] JSON", status: ExitStatus.usage)
            }
            let region = compactJSON(Array(json.utf8), what: "region JSON")
            let reply = try client.request(op: "add-region") { writer in
                if let parent { writer.field("parent", parent) }
                writer.rawField("region", region)
            }
            check(reply)
            out("added")
        case "remove":
            guard rest.count == 2 else { fail("region remove ID", status: ExitStatus.usage) }
            check(try client.request(op: "remove-region") { $0.field("region", rest[1]) })
            out("removed \(rest[1])")
        default:
            fail("region update | add | remove", status: ExitStatus.usage)
        }
    } catch {
        fail(error)
    }
default:
    fail("unknown command '\(command)'\n" + usage, status: ExitStatus.usage)
}
