import TouchCore

/// Swipe: `fingers` fingers travel at least `minimumDistance` in one of `directions` (within
/// `GestureDefaults.swipeAngleTolerance` of the axis) and lift within `maximumDuration` of the first down.
struct SwipeRule: Sendable {
    /// Where each finger of the swipe went down and was last seen, lifted ones included: the swipe's travel is the
    /// mean of the last places against the mean of the starts.
    private struct Travel: Sendable {
        var start: Point?
        var last: Point
    }

    private var maxFingers = 0
    private var travels = FingerTable<Travel>()

    mutating func began(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        if !travels.values.contains(where: { $0.start != nil }) { g.deadline = sample.time + g.spec.maximumDuration }
        travels[sample.finger] = Travel(start: sample.location, last: sample.location)
        maxFingers = max(maxFingers, g.fingerCount)
        if maxFingers > g.spec.fingers { g.fail(at: sample.time, into: &reports) }
    }

    mutating func moved(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        see(sample)
    }

    mutating func ended(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        see(sample)
        guard g.fingerCount == 1 else { return }
        guard maxFingers == g.spec.fingers else {
            g.fail(at: sample.time, into: &reports)
            return
        }
        var from = Point.zero
        var starts = 0
        var to = Point.zero
        for travel in travels.values {
            to = to + travel.last
            if let start = travel.start {
                from = from + start
                starts += 1
            }
        }
        from = Point(x: from.x / Double(starts), y: from.y / Double(starts))
        to = Point(x: to.x / Double(travels.count), y: to.y / Double(travels.count))
        let delta = to - from
        guard delta.length >= g.spec.minimumDistance, let direction = Self.direction(of: delta),
            g.spec.directions.contains(direction)
        else {
            g.fail(at: sample.time, into: &reports)
            return
        }
        var event = g.event(.ended, at: sample.time)
        event.direction = direction
        event.translation = delta
        event.location = to
        event.fingers = maxFingers
        g.report(event, into: &reports)
    }

    func timerFired(at time: EventTime, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        g.fail(at: time, into: &reports)
    }

    mutating func reset() {
        maxFingers = 0
        travels.removeAll()
    }

    /// The finger's last place, in place.
    @inline(__always)
    private mutating func see(_ sample: TouchSample) {
        if let position = travels.position(of: sample.finger) {
            travels[position: position].last = sample.location
        } else {
            travels[sample.finger] = Travel(start: nil, last: sample.location)
        }
    }

    static func direction(of delta: Point) -> SwipeDirection? {
        let degrees = atan2Degrees(y: delta.y, x: delta.x)  // 0 = right, 90 = down (y grows downwards)
        let tolerance = GestureDefaults.swipeAngleTolerance
        for (centre, direction) in [(0.0, SwipeDirection.right), (90, .down), (180, .left), (-180, .left), (-90, .up)]
        where abs(degrees - centre) <= tolerance {
            return direction
        }
        return nil
    }
}
