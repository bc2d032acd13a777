import TouchCore

/// The fingers one recognizer follows in its current sequence: those down (where and when each went down, where it
/// is now), every finger that took part, and the centroid's recent samples for velocity. A value each recognizer
/// keeps; the per-gesture rules read it and never change it.
public struct GestureFingers: Sendable {
    public struct Track: Equatable, Sendable {
        public var start: Point
        public var startTime: EventTime
        public var location: Point
    }

    /// The fingers down, in the order they went down.
    public private(set) var down = FingerTable<Track>()
    /// Every finger that took part in the current sequence (for arbitration), each once, in the order they went
    /// down: a few keys, compared one by one (a set would be hashed on every event).
    public private(set) var participants: [FingerKey] = []
    private var window = VelocityWindow()
    /// The centroid at the last sample with a finger down: where a report made with none down is placed.
    private var lastCentroid = Point.zero

    init() {}

    var count: Int { down.count }

    /// A finger went down: followed from here, and a participant of the sequence.
    mutating func press(_ sample: TouchSample) {
        down[sample.finger] = Track(start: sample.location, startTime: sample.time, location: sample.location)
        if !participants.contains(sample.finger) { participants.append(sample.finger) }
    }

    /// Moves a followed finger in place, through its position in the table.
    @inline(__always)
    mutating func follow(_ sample: TouchSample) {
        guard let position = down.position(of: sample.finger) else { return }
        down[position: position].location = sample.location
    }

    /// A finger lifted, was cancelled or was taken away: no longer followed (it stays a participant).
    mutating func lift(_ finger: FingerKey) { down[finger] = nil }

    /// A new sequence: no participant and no velocity yet. The fingers down are the caller's business.
    mutating func forgetSequence() {
        participants.removeAll(keepingCapacity: true)
        window.removeAll()
    }

    /// The mean place of the first `count` fingers down (the last centroid with none).
    @inline(__always)
    func centroid(ofFirst count: Int) -> Point { mean(ofFirst: count, \.location) }

    /// The mean of where the first `count` fingers went down.
    @inline(__always)
    func startCentroid(ofFirst count: Int) -> Point { mean(ofFirst: count, \.start) }

    /// The greatest distance any finger down has moved from where it went down.
    var maximumMovement: Double {
        @inline(__always) get {
            down.values.reduce(0) { max($0, $1.location.distance(to: $1.start)) }
        }
    }

    /// Centroid velocity over the recent samples, units per second.
    var velocity: Point {
        @inline(__always) get { window.velocity }
    }

    /// Samples the centroid of the first `count` fingers for velocity, when a finger is down.
    @inline(__always)
    mutating func record(at time: EventTime, ofFirst count: Int) {
        guard !down.isEmpty else { return }
        lastCentroid = centroid(ofFirst: count)
        window.record(lastCentroid, at: time)
    }

    @inline(__always)
    private func mean(ofFirst count: Int, _ point: (Track) -> Point) -> Point {
        switch count {
        case 0: return lastCentroid
        case 1:
            // The sum below for one finger, without its loop (asked three times for each move of a one-finger drag).
            // Kept exact: the sum starts from zero, so -0.0 becomes +0.0 as there, and a division by one changes
            // nothing.
            let only = point(down.values[0])
            return Point(x: 0.0 + only.x, y: 0.0 + only.y)
        default: break
        }
        var sum = Point.zero
        for position in 0..<count { sum = sum + point(down.values[position]) }
        return Point(x: sum.x / Double(count), y: sum.y / Double(count))
    }
}
