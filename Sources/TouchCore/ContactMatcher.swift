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
                guard
                    let distanceSquared = squaredDistance(old, new), distanceSquared <= maxDistanceSquared
                else { continue }
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

    /// Exact, or nil when it exceeds Int64: axes span all of Int32, so one difference squared nearly fills 64 bits
    /// and the sum of two does not fit.
    static func squaredDistance(_ a: Point, _ b: Point) -> Int64? {
        let dx = (Int64(a.x) - Int64(b.x)).magnitude
        let dy = (Int64(a.y) - Int64(b.y)).magnitude
        let (sum, overflow) = (dx * dx).addingReportingOverflow(dy * dy)
        guard !overflow, sum <= UInt64(Int64.max) else { return nil }
        return Int64(sum)
    }
}
