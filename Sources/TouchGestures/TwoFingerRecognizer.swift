import TouchCore

/// Pinch and rotate: the first two fingers; scale is their distance relative to the start, rotation the angle
/// of the line between them relative to the start (degrees, clockwise positive). A pinch begins when the
/// distance has changed by `allowableMovement`; a rotate when the angle has changed by
/// `GestureDefaults.rotationThreshold`. Ends when either finger lifts.
public final class TwoFingerRecognizer: Recognizer {
    private var pair: (FingerKey, FingerKey)?
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
