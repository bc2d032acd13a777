import TouchCore

/// Drag (pan): begins when the centroid of `fingers` fingers has moved `minimumDistance`; reports translation
/// from where the fingers went down and velocity; ends when one of them lifts.
///
/// Once begun it follows the fingers it began with, as UIKit's pan whose `maximumNumberOfTouches` is its minimum
/// keeps to its own touches: a finger that goes down later is in neither its centroid nor its finger count, and its
/// moves and lift report nothing. Those are the first `fingers` of the table, which keeps the order they went
/// down in: before the drag begins a finger more fails it, and after, the first of its own to lift ends it.
public final class DragRecognizer: Recognizer {
    override var followedCount: Int { min(fingers.count, spec.fingers) }

    override func began(_ sample: TouchSample) {
        if fingerCount > spec.fingers && !state.isActive { fail(at: sample.time) }
    }

    /// Whether the sample is of a finger the drag follows.
    private func isOwn(_ sample: TouchSample) -> Bool {
        guard let position = fingers.position(of: sample.finger) else { return false }
        return position < spec.fingers
    }

    override func moved(_ sample: TouchSample) {
        guard fingerCount == spec.fingers || state.isActive else { return }
        guard isOwn(sample) else { return }
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
            guard isOwn(sample) else { return }
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
