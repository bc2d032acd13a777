import TouchCore

/// The centroid's recent samples, from which a gesture's velocity is measured over
/// `GestureDefaults.velocityWindow`. A value: a recognizer keeps one and empties it when its sequence ends.
struct VelocityWindow {
    private var samples: [(time: EventTime, location: Point)] = []
    /// Samples before this index have left the window. They go in bulk now and then: removing the first sample at
    /// every step moved all the others (at 240 Hz, a memmove of half a kilobyte a finger event).
    private var firstSample = 0

    /// Centroid velocity over the samples in the window, units per second.
    var velocity: Point {
        guard firstSample < samples.count, let last = samples.last else { return .zero }
        let first = samples[firstSample]
        guard last.time > first.time else { return .zero }
        let seconds = (last.time - first.time).seconds
        return Point(
            x: (last.location.x - first.location.x) / seconds, y: (last.location.y - first.location.y) / seconds)
    }

    @inline(__always)
    mutating func record(_ location: Point, at time: EventTime) {
        samples.append((time, location))
        // Written as a difference, not `time - window`, so it saturates through EventTime at any time.
        while firstSample < samples.count, time - samples[firstSample].time > GestureDefaults.velocityWindow {
            firstSample += 1
        }
        if firstSample >= 64 && firstSample * 2 >= samples.count {
            samples.removeFirst(firstSample)
            firstSample = 0
        }
    }

    mutating func removeAll() {
        samples.removeAll()
        firstSample = 0
    }
}
