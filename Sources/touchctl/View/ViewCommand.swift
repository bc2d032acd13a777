import TouchClient
import TouchPosix
import TouchView

/// `touchctl view`: the scene and its live fingers in the terminal, redrawn as they move.
///
/// Two threads: `MessageReader` reads the socket into the shared `ViewState`; this one runs an event loop over
/// the keyboard, the reader's wake-ups, signals and a frame timer, and draws at most 30 frames a second, and only
/// when the state changed (`RedrawThrottle`). It ends on `q`, Ctrl-C, Ctrl-D, SIGINT, SIGTERM, SIGHUP or the
/// daemon going away, and puts the terminal back as it found it in every case.
enum ViewCommand {
    enum Outcome {
        case quit
        case signal(Int32)
        case daemonGone(String)
    }

    /// Runs until the view ends; the terminal is restored when this returns.
    /// - Returns: the exit status: 0 for a key, 128 + N for signal N, 69 (EX_UNAVAILABLE) when the daemon went away.
    static func run(client: TouchClient, colour: Bool) throws -> Int32 {
        guard Posix.isTerminal(0), Posix.isTerminal(1) else { throw ViewError.notATerminal }
        var initial = ViewState()
        initial.setScene(try MessageReader.fetchScene(client))
        let reply = try client.subscribe(events: ["touch", "gesture", "region", "scene", "device"])
        guard reply.ok else { throw ViewError.noScene(reply.errorMessage ?? "subscribe refused") }

        let loop = try EventLoop()
        var outcome: Outcome?
        let shared = try SharedView(initial)
        // Before the reader thread starts, so that it inherits these signals blocked and only the loop sees them.
        var resized = false
        let signals = try SignalSource(
            loop: loop,
            signals: [Signal.windowChanged, Signal.interrupt, Signal.terminate, Signal.hangup]
        ) { signal in
            if signal == Signal.windowChanged {
                resized = true
            } else {
                outcome = outcome ?? .signal(signal)
                loop.stop()
            }
        }
        // The source lets its signals through when it goes: after the terminal is restored (that defer runs first).
        defer { withExtendedLifetime(signals) {} }
        let terminal = try TerminalSession()
        defer { terminal.restore() }
        let title = "touchctl view: " + client.hello.server
        var throttle = RedrawThrottle()
        var size = terminal.size

        let draw = {
            let state = shared.state.withLock { $0 }
            if let ended = state.ended {
                outcome = outcome ?? .daemonGone(ended)
                loop.stop()
                return
            }
            let screen = ViewRenderer.render(state, rows: size.rows, columns: size.columns, title: title)
            let clear = throttle.drawnVersion == nil
            guard terminal.write(ANSIEncoder.encode(screen, colour: colour, clear: clear)) else {
                outcome = outcome ?? .daemonGone("the terminal went away")
                loop.stop()
                return
            }
            throttle.drew(version: state.version, at: MonotonicClock.nowMicroseconds())
        }
        let timer = try LoopTimer(loop: loop) {}
        let schedule = {
            if resized {
                resized = false
                size = terminal.size
                throttle.invalidate()
            }
            let version = shared.state.withLock { $0.version }
            let now = MonotonicClock.nowMicroseconds()
            guard let next = throttle.nextDraw(version: version, now: now) else { return }
            if next <= now { draw() } else { timer.arm(at: next) }
        }
        var keys = [UInt8](repeating: 0, count: 256)
        try loop.register(0, for: .readable) { _ in
            switch try? Posix.read(0, into: &keys, count: keys.count) {
            case .bytes(let count)?:
                // q, Ctrl-C (3: raw mode delivers it as a byte, not SIGINT) and Ctrl-D (4).
                if keys[..<count].contains(where: { [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4].contains($0) }) {
                    outcome = outcome ?? .quit
                    loop.stop()
                }
            case .wouldBlock?:
                break
            case .endOfFile?, nil:
                outcome = outcome ?? .quit
                loop.stop()
            }
        }
        try loop.register(shared.wakeup.readEnd, for: .readable) { _ in
            shared.acknowledgeWakeup()
            schedule()
        }
        MessageReader.start(client: client, shared: shared)
        schedule()
        while outcome == nil {
            _ = try loop.runOnce(timeoutMilliseconds: -1)
            // Whatever woke the loop (the timer, a resize, a wake-up) may make a frame due.
            if outcome == nil { schedule() }
        }
        withExtendedLifetime((signals, timer)) {}
        terminal.restore()
        switch outcome {
        case .quit?, nil: return 0
        case .signal(let number)?: return 128 + number
        case .daemonGone(let reason)?:
            // The reason may carry the daemon's goodbye text: shown, never sent to the terminal as control codes.
            StandardStreams.write(Array(("touchctl: " + printable(reason) + "\n").utf8), to: 2)
            return ExitStatus.unavailable
        }
    }
}
