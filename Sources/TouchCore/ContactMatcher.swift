/// Matches the anonymous contacts of one protocol A frame to those of the previous frame, as mtdev and Qt do:
/// greedy nearest neighbour over all pairs, shortest distance first. Where both sides carry a tracking id, a
/// pair with equal ids is taken before any distance-only pair, but never across a jump longer than the limit:
/// devices whose ids restart at 0 for every new touch would otherwise glue a new touch onto an old one.
public enum ContactMatcher {
    public struct Point: Equatable, Sendable {
        public var x: Int32
        public var y: Int32
        public var trackingID: Int32?

        public init(x: Int32, y: Int32, trackingID: Int32? = nil) {
            self.x = x
            self.y = y
            self.trackingID = trackingID
        }
    }

    /// - Returns: for each current contact, the index of the previous contact it continues, or nil for a new one.
    public static func match(previous: [Point], current: [Point], maxDistanceSquared: Int64) -> [Int?] {
        var result = [Int?](repeating: nil, count: current.count)
        guard !previous.isEmpty, !current.isEmpty else { return result }

        struct Candidate {
            var rank: Int  // 0: equal tracking ids, 1: distance only
            var distanceSquared: Int64
            var previous: Int
            var current: Int
        }
        var candidates: [Candidate] = []
        candidates.reserveCapacity(previous.count * current.count)
        for (p, old) in previous.enumerated() {
            for (c, new) in current.enumerated() {
                let dx = Int64(new.x) - Int64(old.x)
                let dy = Int64(new.y) - Int64(old.y)
                let distanceSquared = dx * dx + dy * dy
                guard distanceSquared <= maxDistanceSquared else { continue }
                let sameID = old.trackingID != nil && old.trackingID == new.trackingID
                candidates.append(
                    Candidate(rank: sameID ? 0 : 1, distanceSquared: distanceSquared, previous: p, current: c))
            }
        }
        candidates.sort {
            ($0.rank, $0.distanceSquared, $0.previous, $0.current)
                < ($1.rank, $1.distanceSquared, $1.previous, $1.current)
        }
        var previousTaken = [Bool](repeating: false, count: previous.count)
        for candidate in candidates where !previousTaken[candidate.previous] && result[candidate.current] == nil {
            previousTaken[candidate.previous] = true
            result[candidate.current] = candidate.previous
        }
        return result
    }
}
