import Testing
import TouchCore

/// `TouchPhase` hashes its case: equal phases hash alike, and sets and dictionaries keyed by phase keep the four
/// apart.
@Suite("Touch phase as a key")
struct TouchPhaseTests {
    @Test("each phase hashes as itself, the four stay apart in a set and as dictionary keys")
    func hashing() {
        for phase in TouchPhase.allCases {
            #expect(phase.hashValue == TouchPhase(rawValue: phase.rawValue)!.hashValue)
        }
        #expect(Set(TouchPhase.allCases).count == 4)
        var counts: [TouchPhase: Int] = [:]
        for (phase, times) in zip(TouchPhase.allCases, [3, 5, 7, 11]) {
            for _ in 0..<times { counts[phase, default: 0] += 1 }
        }
        #expect(counts == [.down: 3, .move: 5, .up: 7, .cancel: 11])
    }
}
