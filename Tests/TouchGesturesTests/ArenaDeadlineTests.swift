import Testing
import TouchCore
import TouchGestures

/// The arena keeps its earliest timer as recognizers set and clear theirs, and works it out again only when the one
/// that held it changes: what it answers must be the earliest of the timers still running, at every step.
@Suite("Arena deadlines")
struct ArenaDeadlineTests {
    static func sample(_ finger: UInt64, _ phase: TouchPhase, at ms: Int64) -> TouchSample {
        TouchSample(
            finger: FingerKey(rawValue: finger), phase: phase, location: Point(x: 100, y: 100),
            time: EventTime(microseconds: ms * 1000))
    }

    @Test("the earliest timer moves to the next when the one that held it is cleared, and to none after the last")
    func earliestFollowsTheTimers() {
        let arena = GestureArena()
        arena.add(Recognizer(spec: GestureSpec(.longPress)), owner: 0)
        arena.add(Recognizer(spec: GestureSpec(.tap)), owner: 1)
        arena.install(GestureRelations(count: 2))
        // The long press's 500 ms from its down at 0.
        _ = arena.feed(Self.sample(1, .down, at: 0), to: [0])
        #expect(arena.nextDeadline == EventTime(microseconds: 500_000))
        // The tap's hold limit, 500 ms and one microsecond from its down at 100: later, so not the earliest.
        _ = arena.feed(Self.sample(2, .down, at: 100), to: [1])
        #expect(arena.nextDeadline == EventTime(microseconds: 500_000))
        // The press lifted early fails and clears its timer: the tap's is the earliest now.
        let failed = arena.feed(Self.sample(1, .up, at: 200), to: [0])
        #expect(failed.map(\.event.event) == [.failed])
        #expect(arena.nextDeadline == EventTime(microseconds: 600_001))
        // A second press, down at 250, is due at 750: the tap's stays the earliest.
        _ = arena.feed(Self.sample(3, .down, at: 250), to: [0])
        #expect(arena.nextDeadline == EventTime(microseconds: 600_001))
        // The tap ends at its lift and clears its timer: the press's is the only one left.
        let tapped = arena.feed(Self.sample(2, .up, at: 300), to: [1])
        #expect(tapped.map(\.event.event) == [.ended])
        #expect(arena.nextDeadline == EventTime(microseconds: 750_000))
        // The press's time comes: it begins, and no timer is left.
        let began = arena.advance(to: EventTime(microseconds: 800_000))
        #expect(began.map(\.event.event) == [.began])
        #expect(arena.nextDeadline == nil)
    }
}
