import TouchCore
import TouchGestures

/// Drives recognizers in an arena with hand-written finger streams; times are in milliseconds.
final class GestureHarness {
    let arena: GestureArena
    var log: [String] = []
    var events: [GestureEvent] = []

    /// `mustFail`: (waiter, blocker) pairs; `sequenced`: (first, second) steps; both by gesture name.
    init(
        _ specs: [GestureSpec], simultaneous: Set<String> = [], mustFail: [(String, String)] = [],
        sequenced: [(String, String)] = []
    ) {
        arena = GestureArena()
        for spec in specs { arena.add(Recognizer(spec: spec), owner: 0) }
        var relations = GestureRelations(count: arena.recognizers.count)
        // One group naming them all, as a region's `"simultaneous": [[...]]`.
        for (member, spec) in specs.enumerated() where simultaneous.contains(spec.name) {
            relations.ownGroups[member] = [0]
            relations.namingGroups[member] = [0]
        }
        for (waiter, blocker) in mustFail {
            let w = arena.recognizers.firstIndex { $0.spec.name == waiter }!
            relations.mustFail[w].append(arena.recognizers.firstIndex { $0.spec.name == blocker }!)
        }
        for (first, second) in sequenced {
            relations.sequence(
                arena.recognizers.firstIndex { $0.spec.name == first }!,
                before: arena.recognizers.firstIndex { $0.spec.name == second }!)
        }
        arena.install(relations)
    }

    func at(_ ms: Int64) -> EventTime { EventTime(microseconds: ms * 1000) }

    func touch(_ finger: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double, at ms: Int64) {
        record(arena.advance(to: at(ms)))
        record(
            arena.feed(
                TouchSample(
                    finger: FingerKey(rawValue: finger), phase: phase, location: Point(x: x, y: y), time: at(ms)),
                to: Array(arena.recognizers.indices)))
    }

    func finish(at ms: Int64 = 1_000_000) { record(arena.advance(to: at(ms))) }

    private func record(_ reports: [GestureArena.Report]) {
        for report in reports {
            let event = report.event
            events.append(event)
            log.append("\(event.name) \(event.event.rawValue) @\(event.time.microseconds / 1000)")
        }
    }
}

extension GestureHarness {
    /// A single tap named "single" that waits for a double tap named "double" to fail, as on a region with both.
    static func singleAndDouble() -> GestureHarness {
        var double = GestureSpec(.tap, name: "double")
        double.taps = 2
        return GestureHarness([GestureSpec(.tap, name: "single"), double], mustFail: [("single", "double")])
    }
}
