import Testing
import TouchCore
import TouchGestures

/// A finished recognizer ignores moves (`ignoresMoves`), and the arena skips it for a move without calling it.
/// These check the arena's shortcut against each recognizer fed alone through `handle`, and the rule itself
/// against values worked out by hand.
@Suite("Finished recognizers and moves")
struct FinishedRecognizerTests {
    static func sample(_ finger: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double, at ms: Int64) -> TouchSample {
        TouchSample(
            finger: FingerKey(rawValue: finger), phase: phase, location: Point(x: x, y: y),
            time: EventTime(microseconds: ms * 1000))
    }

    /// A tap that fails by moving and keeps moving, a second finger, the lift, and a new tap; a drag that ends while
    /// another finger stays and moves; a swipe too slow.
    static let script: [TouchSample] = [
        sample(1, .down, 100, 100, at: 0), sample(1, .move, 130, 100, at: 10), sample(1, .move, 160, 104, at: 20),
        sample(2, .down, 300, 300, at: 30), sample(2, .move, 310, 300, at: 40), sample(1, .move, 170, 110, at: 50),
        sample(1, .up, 170, 110, at: 60), sample(2, .move, 330, 305, at: 70), sample(2, .up, 330, 305, at: 80),
        sample(3, .down, 50, 50, at: 900), sample(3, .move, 52, 51, at: 920), sample(3, .up, 52, 51, at: 950),
        sample(4, .down, 500, 500, at: 2000), sample(4, .move, 500, 560, at: 2800),
        sample(4, .move, 500, 600, at: 2810),
        sample(4, .up, 500, 600, at: 2820),
    ]

    @Test(
        "the arena's skip of a finished recognizer gives what handle gives",
        arguments: [GestureKind.tap, .drag, .longPress, .swipe, .pinch])
    func arenaMatchesHandle(kind: GestureKind) {
        let spec = GestureSpec(kind)
        let arena = GestureArena()
        arena.add(Recognizer(spec: spec), owner: 0)
        var alone = Recognizer(spec: spec)
        var viaArena: [GestureEvent] = []
        var viaHandle: [GestureEvent] = []
        for sample in Self.script {
            viaArena += arena.advance(to: sample.time).map(\.event)
            viaArena += arena.feed(sample, to: [0]).map(\.event)
            while let deadline = alone.deadline, deadline <= sample.time, !alone.state.isFinished {
                viaHandle += alone.fire(at: deadline)
            }
            viaHandle += alone.handle(sample)
            #expect(arena.recognizers[0].state == alone.state)
            #expect(arena.recognizers[0].fingers == alone.fingers)
        }
        #expect(viaArena == viaHandle)
    }

    @Test("a failed tap keeps its finger where it failed; the next tap is reported where it lifts")
    func failedTapIgnoresMoves() {
        var tap = Recognizer(spec: GestureSpec(.tap))
        for sample in Self.script.prefix(3) { #expect(tap.handle(sample).isEmpty) }
        #expect(tap.state == .failed)
        let key = FingerKey(rawValue: 1)
        #expect(tap.fingers[key]?.location == Point(x: 130, y: 100))  // the move that failed it
        _ = tap.handle(Self.sample(1, .move, 170, 110, at: 50))
        #expect(tap.fingers[key]?.location == Point(x: 130, y: 100))
        _ = tap.handle(Self.sample(1, .up, 170, 110, at: 60))
        #expect(tap.fingers.isEmpty)
        _ = tap.handle(Self.sample(3, .down, 50, 50, at: 900))
        _ = tap.handle(Self.sample(3, .move, 52, 51, at: 920))
        let ended = tap.handle(Self.sample(3, .up, 52, 51, at: 950))
        #expect(ended.map(\.event) == [.ended])
        #expect(ended.first?.location == Point(x: 52, y: 51))
    }
}
