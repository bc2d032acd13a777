import Testing
import TouchCore

@testable import TouchGestures

/// The arena's work for one event follows the recognizers the finger fed, not their square: counted as the looks
/// the arena takes at recognizers in settling and dropping idle ones (`GestureArena.looks`, kept in debug builds),
/// not timed.
@Suite("Arena work")
struct ArenaWorkTests {
    static let finger = FingerKey(rawValue: 1)

    static func sample(_ phase: TouchPhase, at ms: Int64) -> TouchSample {
        TouchSample(finger: finger, phase: phase, location: .zero, time: EventTime(microseconds: ms * 1000))
    }

    @Test("a lift that ends 200 gestures at once looks at each about once, not each about every other")
    func liftEndingMany() {
        let arena = GestureArena()
        let count = 200
        for index in 0..<count { arena.add(Recognizer(spec: GestureSpec(.tap, name: "t\(index)")), owner: 0) }
        arena.install(GestureRelations(count: count))
        let members = Array(arena.recognizers.indices)
        _ = arena.feed(Self.sample(.down, at: 0), to: members)
        arena.looks = 0
        let reports = arena.feed(Self.sample(.up, at: 50), to: members)
        #expect(reports.count == count)
        #expect(reports.allSatisfy { $0.event.event == .ended })
        // Every one has ended with the lift before any is settled, so no winner has another to exclude: what is
        // left is the arena's look at each to see whether it is idle now (200), where each of the 200 winners
        // going through the 199 others would come to 39,800.
        #expect(arena.looks <= 2 * count)
    }

    @Test("a move that reports only `changed` looks at the recognizers it fed, not at the others engaged")
    func moveLooksAtItsOwn() {
        let arena = GestureArena()
        let count = 200
        for index in 0..<count { arena.add(Recognizer(spec: GestureSpec(.longPress, name: "p\(index)")), owner: 0) }
        arena.add(Recognizer(spec: GestureSpec(.drag)), owner: 0)
        arena.install(GestureRelations(count: count + 1))
        // 200 long presses engaged by a second finger, and a drag under the first.
        let other = FingerKey(rawValue: 2)
        _ = arena.feed(
            TouchSample(finger: other, phase: .down, location: .zero, time: .init(microseconds: 0)),
            to: Array(0..<count))
        _ = arena.feed(Self.sample(.down, at: 0), to: [count])
        _ = arena.feed(
            TouchSample(
                finger: Self.finger, phase: .move, location: Point(x: 20, y: 0), time: .init(microseconds: 10_000)),
            to: [count])
        arena.looks = 0
        let reports = arena.feed(
            TouchSample(
                finger: Self.finger, phase: .move, location: Point(x: 30, y: 0), time: .init(microseconds: 20_000)),
            to: [count])
        #expect(reports.map(\.event.event) == [.changed])
        #expect(arena.looks == 1)
    }
}
