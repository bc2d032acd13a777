import TouchCore

/// Tap: `taps` taps of `fingers` fingers. Fails when a finger moves beyond `allowableMovement`, stays down
/// longer than `maximumDuration`, more fingers than asked go down, the next tap does not come within
/// `tapInterval`, or lands farther than `tapSlop` from the first.
struct TapRule: Sendable {
    private var tapsDone = 0
    private var fingersThisTap = 0
    private var firstTapLocation: Point?
    private var tapLocation = Point.zero
    private static let pastTheLimit = EventTime.Duration(microseconds: 1)

    mutating func began(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        if g.fingerCount == 1 {
            // First finger of a tap.
            if let first = firstTapLocation, sample.location.distance(to: first) > g.spec.tapSlop {
                g.fail(at: sample.time, into: &reports)
                return
            }
            fingersThisTap = 0
            // A tap may be held for `maximumDuration` itself (the dispatcher's tap count agrees): it fails only one
            // microsecond past it, since a timer due at an event's time runs before that event.
            g.deadline = sample.time + (g.spec.maximumDuration + Self.pastTheLimit)
        }
        fingersThisTap += 1
        if fingersThisTap > g.spec.fingers { g.fail(at: sample.time, into: &reports) }
    }

    func moved(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        if g.maximumMovement > g.spec.allowableMovement { g.fail(at: sample.time, into: &reports) }
    }

    mutating func ended(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        if g.fingerCount == fingersThisTap { tapLocation = g.centroid }  // first lift: every finger of the tap is down
        guard g.fingerCount == 1 else { return }  // the last finger of this tap is lifting
        guard fingersThisTap == g.spec.fingers else {
            g.fail(at: sample.time, into: &reports)
            return
        }
        tapsDone += 1
        if firstTapLocation == nil { firstTapLocation = tapLocation }
        if tapsDone == g.spec.taps {
            var event = g.event(.ended, at: sample.time)
            event.taps = tapsDone
            event.location = tapLocation
            event.fingers = g.spec.fingers
            g.report(event, into: &reports)
        } else {
            g.deadline = sample.time + g.spec.tapInterval
        }
    }

    func timerFired(at time: EventTime, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        g.fail(at: time, into: &reports)
    }

    mutating func reset() {
        tapsDone = 0
        fingersThisTap = 0
        firstTapLocation = nil
    }
}
