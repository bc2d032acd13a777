import TouchCore

/// Long press: `fingers` fingers held for `minimumDuration` within `allowableMovement`. Reports `pressing` as
/// soon as the fingers are down, `began` when the time is up, `changed` on movement after that, `ended` on lift.
/// With `dragAfterPress` (the long-press-drag gesture) movement after the press is a drag with translation.
struct LongPressRule: Sendable {
    private var pressLocation = Point.zero

    mutating func began(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        guard !g.state.isActive else { return }
        if g.fingerCount > g.spec.fingers {
            g.fail(at: sample.time, into: &reports)
        } else if g.fingerCount == g.spec.fingers {
            pressLocation = g.centroid
            g.report(.pressing, at: sample.time, into: &reports)
            g.deadline = sample.time + g.spec.minimumDuration
        }
    }

    func moved(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        if g.state.isActive {
            var event = g.event(.changed, at: sample.time)
            event.translation = event.location - pressLocation
            g.report(event, into: &reports)
        } else if g.maximumMovement > g.spec.allowableMovement {
            g.fail(at: sample.time, into: &reports)
        }
    }

    func ended(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        if g.state.isActive {
            var event = g.event(.ended, at: sample.time)
            event.translation = event.location - pressLocation
            event.velocity = g.velocity
            g.report(event, into: &reports)
        } else {
            g.fail(at: sample.time, into: &reports)
        }
    }

    mutating func timerFired(at time: EventTime, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        guard g.fingerCount == g.spec.fingers else { return }
        pressLocation = g.centroid  // a drag after the press measures from where the press completed
        g.report(.began, at: time, into: &reports)
    }
}
