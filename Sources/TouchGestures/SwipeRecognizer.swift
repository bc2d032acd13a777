import TouchCore

/// Swipe: `fingers` fingers travel at least `minimumDistance` in one of `directions` (within
/// `GestureDefaults.swipeAngleTolerance` of the axis) and lift within `maximumDuration` of the first down.
public final class SwipeRecognizer: Recognizer {
    private var maxFingers = 0
    private var starts: [FingerKey: Point] = [:]
    private var lasts: [FingerKey: Point] = [:]

    override func began(_ sample: TouchSample) {
        if starts.isEmpty { deadline = sample.time + spec.maximumDuration }
        starts[sample.finger] = sample.location
        lasts[sample.finger] = sample.location
        maxFingers = max(maxFingers, fingerCount)
        if maxFingers > spec.fingers { fail(at: sample.time) }
    }

    override func moved(_ sample: TouchSample) {
        lasts[sample.finger] = sample.location
    }

    override func ended(_ sample: TouchSample) {
        lasts[sample.finger] = sample.location
        guard fingerCount == 1 else { return }
        guard maxFingers == spec.fingers else {
            fail(at: sample.time)
            return
        }
        let from = Self.mean(starts.values)
        let to = Self.mean(lasts.values)
        let delta = to - from
        guard delta.length >= spec.minimumDistance, let direction = Self.direction(of: delta),
            spec.directions.contains(direction)
        else {
            fail(at: sample.time)
            return
        }
        report(.ended, at: sample.time) {
            $0.direction = direction
            $0.translation = delta
            $0.location = to
            $0.fingers = self.maxFingers
        }
    }

    override func timerFired(at time: EventTime) { fail(at: time) }

    override func resetGesture() {
        maxFingers = 0
        starts = [:]
        lasts = [:]
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

    private static func mean(_ points: Dictionary<FingerKey, Point>.Values) -> Point {
        var sum = Point.zero
        for point in points { sum = sum + point }
        return Point(x: sum.x / Double(points.count), y: sum.y / Double(points.count))
    }
}
