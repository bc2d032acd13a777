import TouchCore

/// Tap: `taps` taps of `fingers` fingers. Fails when a finger moves beyond `allowableMovement`, stays down
/// longer than `maximumDuration`, more fingers than asked go down, the next tap does not come within
/// `tapInterval`, or lands farther than `tapSlop` from the first.
public final class TapRecognizer: Recognizer {
    private var tapsDone = 0
    private var fingersThisTap = 0
    private var firstTapLocation: Point?
    private var tapLocation = Point.zero

    override func began(_ sample: TouchSample) {
        if fingerCount == 1 {
            // First finger of a tap.
            if let first = firstTapLocation, sample.location.distance(to: first) > spec.tapSlop {
                fail(at: sample.time)
                return
            }
            fingersThisTap = 0
            deadline = sample.time + spec.maximumDuration
        }
        fingersThisTap += 1
        if fingersThisTap > spec.fingers { fail(at: sample.time) }
    }

    override func moved(_ sample: TouchSample) {
        if maximumMovement > spec.allowableMovement { fail(at: sample.time) }
    }

    override func ended(_ sample: TouchSample) {
        if fingerCount == fingersThisTap { tapLocation = centroid }  // first lift: every finger of the tap is down
        guard fingerCount == 1 else { return }  // the last finger of this tap is lifting
        guard fingersThisTap == spec.fingers else {
            fail(at: sample.time)
            return
        }
        tapsDone += 1
        if firstTapLocation == nil { firstTapLocation = tapLocation }
        if tapsDone == spec.taps {
            let taps = tapsDone
            let location = tapLocation
            report(.ended, at: sample.time) {
                $0.taps = taps
                $0.location = location
                $0.fingers = self.spec.fingers
            }
        } else {
            deadline = sample.time + spec.tapInterval
        }
    }

    override func timerFired(at time: EventTime) {
        fail(at: time)
    }

    override func resetGesture() {
        tapsDone = 0
        fingersThisTap = 0
        firstTapLocation = nil
    }
}

/// Long press: `fingers` fingers held for `minimumDuration` within `allowableMovement`. Reports `pressing` as
/// soon as the fingers are down, `began` when the time is up, `changed` on movement after that, `ended` on lift.
/// With `dragAfterPress` (the long-press-drag gesture) movement after the press is a drag with translation.
public final class LongPressRecognizer: Recognizer {
    private var pressLocation = Point.zero

    override func began(_ sample: TouchSample) {
        guard !state.isActive else { return }
        if fingerCount > spec.fingers {
            fail(at: sample.time)
        } else if fingerCount == spec.fingers {
            pressLocation = centroid
            report(.pressing, at: sample.time)
            deadline = sample.time + spec.minimumDuration
        }
    }

    override func moved(_ sample: TouchSample) {
        if state.isActive {
            let origin = pressLocation
            report(.changed, at: sample.time) { $0.translation = $0.location - origin }
        } else if maximumMovement > spec.allowableMovement {
            fail(at: sample.time)
        }
    }

    override func ended(_ sample: TouchSample) {
        if state.isActive {
            let origin = pressLocation
            let velocity = self.velocity
            report(.ended, at: sample.time) {
                $0.translation = $0.location - origin
                $0.velocity = velocity
            }
        } else {
            fail(at: sample.time)
        }
    }

    override func timerFired(at time: EventTime) {
        guard fingerCount == spec.fingers else { return }
        pressLocation = centroid  // a drag after the press measures from where the press completed
        report(.began, at: time)
    }
}

/// Drag (pan): begins when the centroid of `fingers` fingers has moved `minimumDistance`; reports translation
/// from where the fingers went down and velocity; ends on lift.
public final class DragRecognizer: Recognizer {
    override func began(_ sample: TouchSample) {
        if fingerCount > spec.fingers && !state.isActive { fail(at: sample.time) }
    }

    override func moved(_ sample: TouchSample) {
        guard fingerCount == spec.fingers || state.isActive else { return }
        let translation = centroid - startCentroid
        if state.isActive {
            let velocity = self.velocity
            report(.changed, at: sample.time) {
                $0.translation = translation
                $0.velocity = velocity
            }
        } else if translation.length >= spec.minimumDistance {
            let velocity = self.velocity
            report(.began, at: sample.time) {
                $0.translation = translation
                $0.velocity = velocity
            }
        }
    }

    override func ended(_ sample: TouchSample) {
        if state.isActive {
            let translation = centroid - startCentroid
            let velocity = self.velocity
            report(.ended, at: sample.time) {
                $0.translation = translation
                $0.velocity = velocity
            }
        } else if fingerCount == 1 {
            fail(at: sample.time)
        }
    }
}

/// Swipe: `fingers` fingers travel at least `minimumDistance` in one of `directions` (within
/// `GestureDefaults.swipeAngleTolerance` of the axis) and lift within `maximumDuration` of the first down.
public final class SwipeRecognizer: Recognizer {
    private var maxFingers = 0
    private var starts: [UInt64: Point] = [:]
    private var lasts: [UInt64: Point] = [:]

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

    private static func mean(_ points: Dictionary<UInt64, Point>.Values) -> Point {
        var sum = Point.zero
        for point in points { sum = sum + point }
        return Point(x: sum.x / Double(points.count), y: sum.y / Double(points.count))
    }
}

/// Pinch and rotate: the first two fingers; scale is their distance relative to the start, rotation the angle
/// of the line between them relative to the start (degrees, clockwise positive). A pinch begins when the
/// distance has changed by `allowableMovement`; a rotate when the angle has changed by
/// `GestureDefaults.rotationThreshold`. Ends when either finger lifts.
public final class TwoFingerRecognizer: Recognizer {
    private var pair: (UInt64, UInt64)?
    private var startDistance = 0.0
    private var startAngle = 0.0
    private var lastAngle = 0.0
    private var turned = 0.0

    override func began(_ sample: TouchSample) {
        guard pair == nil, fingerCount == 2 else { return }
        let ids = fingers.keys.sorted()
        pair = (ids[0], ids[1])
        let (a, b) = positions()
        startDistance = a.distance(to: b)
        startAngle = atan2Degrees(y: b.y - a.y, x: b.x - a.x)
        lastAngle = startAngle
        turned = 0
    }

    override func moved(_ sample: TouchSample) {
        guard let pair, sample.finger == pair.0 || sample.finger == pair.1, startDistance > 0 else { return }
        let (a, b) = positions()
        let distance = a.distance(to: b)
        let angle = atan2Degrees(y: b.y - a.y, x: b.x - a.x)
        var step = angle - lastAngle
        if step > 180 { step -= 360 }
        if step < -180 { step += 360 }
        turned += step
        lastAngle = angle
        let scale = distance / startDistance
        let rotation = turned
        if state.isActive {
            report(.changed, at: sample.time) { self.fill(&$0, scale: scale, rotation: rotation) }
        } else {
            let starts =
                spec.kind == .pinch
                ? abs(distance - startDistance) >= spec.allowableMovement
                : abs(rotation) >= GestureDefaults.rotationThreshold
            if starts { report(.began, at: sample.time) { self.fill(&$0, scale: scale, rotation: rotation) } }
        }
    }

    override func ended(_ sample: TouchSample) {
        guard let pair, sample.finger == pair.0 || sample.finger == pair.1 else {
            if fingerCount == 1 && !state.isActive { fail(at: sample.time) }
            return
        }
        if state.isActive {
            let (a, b) = positions()
            let scale = startDistance > 0 ? a.distance(to: b) / startDistance : 1
            let rotation = turned
            report(.ended, at: sample.time) { self.fill(&$0, scale: scale, rotation: rotation) }
        } else {
            fail(at: sample.time)
        }
    }

    override func resetGesture() {
        pair = nil
        turned = 0
    }

    private func positions() -> (Point, Point) {
        guard let pair, let a = fingers[pair.0]?.location, let b = fingers[pair.1]?.location else {
            return (.zero, .zero)
        }
        return (a, b)
    }

    private func fill(_ event: inout GestureEvent, scale: Double, rotation: Double) {
        event.scale = scale
        event.rotation = rotation
        event.fingers = 2
    }
}
