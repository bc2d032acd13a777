import TouchCore

/// Tap: `taps` taps of `fingers` fingers. Fails when a finger moves beyond `allowableMovement`, stays down
/// longer than `maximumDuration`, more fingers than asked go down, the next tap does not come within
/// `tapInterval`, or lands farther than `tapSlop` from the first.
public final class TapRecognizer: Recognizer {
    private var tapsDone = 0
    private var fingersThisTap = 0
    private var firstTapLocation: Point?
    private var tapLocation = Point.zero
    private static let pastTheLimit = EventTime.Duration(microseconds: 1)

    override func began(_ sample: TouchSample) {
        if fingerCount == 1 {
            // First finger of a tap.
            if let first = firstTapLocation, sample.location.distance(to: first) > spec.tapSlop {
                fail(at: sample.time)
                return
            }
            fingersThisTap = 0
            // A tap may be held for `maximumDuration` itself (the dispatcher's tap count agrees): it fails only one
            // microsecond past it, since a timer due at an event's time runs before that event.
            deadline = sample.time + (spec.maximumDuration + Self.pastTheLimit)
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
