import Testing
import TouchCore

@testable import TouchGestures

/// The arena's work for one event follows the recognizers the finger fed, not their square: counted as the
/// questions it asks of recognizers (`isEngaged`, `sharesFinger`), not timed.
@Suite("Arena work")
struct ArenaWorkTests {
    /// A gesture that ends at every lift, counting the questions the arena asks it.
    final class CountingRecognizer: Recognizer {
        static let counter = Counter()
        final class Counter: @unchecked Sendable { var questions = 0 }

        override func ended(_ sample: TouchSample) { report(.ended, at: sample.time) }

        override func sharesFinger(with other: Recognizer) -> Bool {
            Self.counter.questions += 1
            return super.sharesFinger(with: other)
        }

        override var isEngaged: Bool {
            Self.counter.questions += 1
            return super.isEngaged
        }
    }

    @Test("a lift that ends 200 gestures at once asks each about once, not each about every other")
    func liftEndingMany() {
        let arena = GestureArena()
        let count = 200
        for index in 0..<count {
            arena.add(CountingRecognizer(spec: GestureSpec(.tap, name: "t\(index)")), owner: 0)
        }
        let members = Array(arena.recognizers.indices)
        let finger = FingerKey(rawValue: 1)
        _ = arena.feed(
            TouchSample(finger: finger, phase: .down, location: .zero, time: EventTime(microseconds: 0)), to: members)
        CountingRecognizer.counter.questions = 0
        let reports = arena.feed(
            TouchSample(finger: finger, phase: .up, location: .zero, time: EventTime(microseconds: 50_000)), to: members
        )
        #expect(reports.count == count)
        #expect(reports.allSatisfy { $0.event.event == .ended })
        // Every one has ended with the lift before any is settled, so no winner has another to exclude: what is
        // left is the arena's look at each to see whether it is idle now (200), where each of the 200 winners
        // going through the 199 others came to 39,800.
        #expect(CountingRecognizer.counter.questions <= 2 * count)
    }
}
