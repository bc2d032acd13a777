import Testing
import TouchCore
import TouchGestures

/// The arena decides every relation from the table it was given (`GestureRelations`): the same recognizers behave
/// as the table says, and only as it says.
@Suite("Relation table")
struct RelationTableTests {
    @Test("without a wait in the table a single tap fires at its lift; with one, after the double tap's 300 ms")
    func waitComesFromTheTable() {
        var double = GestureSpec(.tap, name: "double")
        double.taps = 2
        let free = GestureHarness([GestureSpec(.tap, name: "single"), double])
        free.touch(1, .down, 50, 50, at: 0)
        free.touch(1, .up, 50, 50, at: 60)
        free.finish()
        // Exclusive only: the single recognizes at the lift, as UIKit's without `require(toFail:)`, and that
        // fails the double, which had reported nothing.
        #expect(free.log == ["single ended @60"])

        let waiting = GestureHarness([GestureSpec(.tap, name: "single"), double], mustFail: [("single", "double")])
        waiting.touch(1, .down, 50, 50, at: 0)
        waiting.touch(1, .up, 50, 50, at: 60)
        waiting.finish()
        #expect(waiting.log == ["single ended @360"])
    }

    @Test("a later step in the table hears nothing until the step before it is recognized")
    func sequenceComesFromTheTable() {
        let h = GestureHarness([GestureSpec(.tap), GestureSpec(.drag)], sequenced: [("tap", "drag")])
        // A drag with no tap before it: the tap fails at the move, the unarmed drag hears nothing.
        h.touch(1, .down, 100, 100, at: 0)
        h.touch(1, .move, 160, 100, at: 40)
        h.touch(1, .up, 160, 100, at: 80)
        // A tap, then within 300 ms a drag of 30 units.
        h.touch(2, .down, 100, 100, at: 200)
        h.touch(2, .up, 100, 100, at: 240)
        h.touch(3, .down, 100, 100, at: 300)
        h.touch(3, .move, 130, 100, at: 320)
        h.touch(3, .up, 130, 100, at: 340)
        h.finish()
        #expect(h.log == ["tap ended @240", "drag began @320", "drag ended @340"])
        #expect(h.events.last?.translation == Point(x: 30, y: 0))
    }
}
