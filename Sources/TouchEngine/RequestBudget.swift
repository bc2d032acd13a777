import TouchCore
import TouchWire

/// How much request work the engine does before it lets the adapter's loop serve devices and timers again. One
/// budget is shared by all clients: it is refilled when a turn of the loop resumes deferred requests, and
/// otherwise at most once per `refillMicroseconds` of input time, so twenty clients each sending one large
/// request in the same turn get one budget between them, not twenty.
///
/// A budget is 64 small requests, or fewer large lines (a unit per 4 KiB read: a 230 kB line costs a turn), or
/// one request that works on the whole scene (a scene put in force, the scene written out), whose cost grows with
/// the scene. An edit made in place costs a unit per 1,024 regions of the scene beside its line: it orders and
/// buckets the scene again for hit testing.
struct RequestBudget {
    static let units = 64
    static let bytesPerUnit = 4 * 1024
    static let regionsPerUnit = 1024
    static let refillMicroseconds: Int64 = 1000

    /// What the request just handled did beyond reading its line.
    enum Work {
        case line
        case regionEdit(sceneRegions: Int)
        case wholeScene
    }

    private(set) var left = Self.units
    private var refilledAt: EventTime?

    var isSpent: Bool { left <= 0 }

    /// A full budget for a turn of the loop that resumes deferred requests.
    mutating func refill(at time: EventTime) {
        left = Self.units
        refilledAt = time
    }

    /// A full budget when none has been given for `refillMicroseconds`, and no client's requests are waiting for
    /// a turn (those come first, at the next turn).
    mutating func refill(at time: EventTime, anyDeferred: Bool) {
        guard !anyDeferred else { return }
        if let refilledAt, time.microseconds < refilledAt.microseconds &+ Self.refillMicroseconds { return }
        refill(at: time)
    }

    mutating func spend(on item: LineFramer.Item, work: Work) {
        switch item {
        case .line(let bytes): left -= 1 + bytes.count / Self.bytesPerUnit
        case .oversized: left -= 1
        }
        switch work {
        case .line: break
        case .regionEdit(let regions): left -= regions / Self.regionsPerUnit
        case .wholeScene: left = 0
        }
    }
}
