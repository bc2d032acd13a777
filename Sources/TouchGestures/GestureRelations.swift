import TouchCore

/// How the recognizers of one arena relate, by their index in it: the table the arena decides from. The dispatcher
/// builds it when a scene is installed (docs/scene.md, "Relations"); recognizers hold no reference to each other.
///
/// Exclusion is the default and needs no entry: a winner fails every other recognizer that shares a finger with it,
/// unless the two may run together (`mayRunTogether`), or are steps of one sequence.
public struct GestureRelations: Equatable, Sendable {
    /// For each recognizer, the ones that must fail before it may begin or end (UIKit's `require(toFail:)`; a
    /// single tap waiting for the double tap; every gesture below a region's high-priority one), in the order they
    /// were named.
    public var mustFail: [[Int]] = []
    /// Sequencing (SwiftUI's `first.sequenced(before: second)`): the step each recognizer follows, if any. It hears
    /// nothing until that one is recognized; then it starts from the fingers still down, or from the next down
    /// within `GestureDefaults.doubleTapInterval` when none is.
    public var after: [Int?] = []
    /// The step that follows each recognizer, if any: `after` read the other way.
    public var next: [Int?] = []
    /// Simultaneous groups (a region's `simultaneous`: gesture names that may be recognized together), each by a
    /// number: for each recognizer, the groups of its own region that name it.
    public var ownGroups: [[Int]] = []
    /// For each recognizer, every group, of any region, that names it: a group names gestures, not recognizers, so
    /// a region's group lets its own gesture run with a gesture of that name anywhere it shares fingers with.
    public var namingGroups: [[Int]] = []

    public init() {}

    /// A table for `count` recognizers with no relation between them.
    public init(count: Int) {
        mustFail = Array(repeating: [], count: count)
        after = Array(repeating: nil, count: count)
        next = Array(repeating: nil, count: count)
        ownGroups = Array(repeating: [], count: count)
        namingGroups = Array(repeating: [], count: count)
    }

    /// Whether the table has an entry for each of `count` recognizers.
    func covers(_ count: Int) -> Bool {
        mustFail.count == count && after.count == count && next.count == count && ownGroups.count == count
            && namingGroups.count == count
    }

    /// Makes `second` the step after `first`.
    public mutating func sequence(_ first: Int, before second: Int) {
        next[first] = second
        after[second] = first
    }

    /// Whether `a` and `b` may both be recognized: a group of either's region names both.
    func mayRunTogether(_ a: Int, _ b: Int) -> Bool {
        func named(_ own: [Int], _ naming: [Int]) -> Bool { own.contains { naming.contains($0) } }
        return named(ownGroups[a], namingGroups[b]) || named(ownGroups[b], namingGroups[a])
    }

    /// Whether `a` is before or after `b` in one sequence.
    func isSequenced(_ a: Int, with b: Int) -> Bool {
        var link = after[a]
        while let earlier = link {
            if earlier == b { return true }
            link = after[earlier]
        }
        link = next[a]
        while let later = link {
            if later == b { return true }
            link = next[later]
        }
        return false
    }
}

/// A sequence step's own progress (`GestureRelations.after`), which the arena keeps with its recognizer
/// (`Recognizer.step`), so that it travels into the next scene's arena: armed by the predecessor's recognition until
/// this step's sequence is over, and, when armed with no finger down, by when the next down must come.
public struct SequenceStep: Equatable, Sendable {
    public internal(set) var armed = false
    var armedUntil: EventTime?

    public init() {}
}
