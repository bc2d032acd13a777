import TouchCore

/// Pinch and rotate: the first two fingers; scale is their distance relative to the start, rotation the angle
/// of the line between them relative to the start (degrees, clockwise positive). A pinch begins when the
/// distance has changed by `allowableMovement`; a rotate when the angle has changed by
/// `GestureDefaults.rotationThreshold`. Ends when either finger lifts.
struct TwoFingerRule: Sendable {
    /// The two fingers, the lower key first; nil until two are down.
    private var pair: (FingerKey, FingerKey)?
    private var startDistance = 0.0
    private var startAngle = 0.0
    private var lastAngle = 0.0
    private var turned = 0.0

    mutating func began(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        guard pair == nil, g.fingerCount == 2 else { return }
        let keys = g.fingers.down.keys
        pair = (min(keys[0], keys[1]), max(keys[0], keys[1]))
        let (a, b) = positions(g)
        startDistance = a.distance(to: b)
        startAngle = atan2Degrees(y: b.y - a.y, x: b.x - a.x)
        lastAngle = startAngle
        turned = 0
    }

    mutating func moved(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        guard let pair, sample.finger == pair.0 || sample.finger == pair.1, startDistance > 0 else { return }
        let (a, b) = positions(g)
        let distance = a.distance(to: b)
        let angle = atan2Degrees(y: b.y - a.y, x: b.x - a.x)
        var step = angle - lastAngle
        if step > 180 { step -= 360 }
        if step < -180 { step += 360 }
        turned += step
        lastAngle = angle
        let scale = distance / startDistance
        if g.state.isActive {
            report(.changed, scale: scale, at: sample.time, &g, &reports)
        } else {
            let starts =
                g.spec.kind == .pinch
                ? abs(distance - startDistance) >= g.spec.allowableMovement
                : abs(turned) >= GestureDefaults.rotationThreshold
            if starts { report(.began, scale: scale, at: sample.time, &g, &reports) }
        }
    }

    func ended(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        guard let pair, sample.finger == pair.0 || sample.finger == pair.1 else {
            if g.fingerCount == 1 && !g.state.isActive { g.fail(at: sample.time, into: &reports) }
            return
        }
        if g.state.isActive {
            let (a, b) = positions(g)
            let scale = startDistance > 0 ? a.distance(to: b) / startDistance : 1
            report(.ended, scale: scale, at: sample.time, &g, &reports)
        } else {
            g.fail(at: sample.time, into: &reports)
        }
    }

    mutating func reset() {
        pair = nil
        turned = 0
    }

    @inline(__always)
    private func positions(_ g: borrowing RecognizerCore) -> (Point, Point) {
        guard let pair, let a = g.fingers.down[pair.0]?.location, let b = g.fingers.down[pair.1]?.location else {
            return (.zero, .zero)
        }
        return (a, b)
    }

    private func report(
        _ kind: GestureEventKind, scale: Double, at time: EventTime, _ g: inout RecognizerCore,
        _ reports: inout [GestureArena.Report]
    ) {
        var event = g.event(kind, at: time)
        event.scale = scale
        event.rotation = turned
        event.fingers = 2
        g.report(event, into: &reports)
    }
}
