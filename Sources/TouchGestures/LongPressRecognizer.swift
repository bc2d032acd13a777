import TouchCore

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
