import TouchCore

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
