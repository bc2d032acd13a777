import TouchCore

/// Drag (pan): begins when the centroid of `fingers` fingers has moved `minimumDistance`; reports translation
/// from where the fingers went down and velocity; ends when one of them lifts.
///
/// Once begun it follows the fingers it began with, as UIKit's pan whose `maximumNumberOfTouches` is its minimum
/// keeps to its own touches: a finger that goes down later is in neither its centroid nor its finger count
/// (`RecognizerCore.followedCount`), and its moves and lift report nothing. Those are the first `fingers` of the
/// table, which keeps the order they went down in: before the drag begins a finger more fails it, and after, the
/// first of its own to lift ends it. The rule keeps nothing of its own: the fingers are all it reads.
struct DragRule: Sendable {
    func began(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        if g.fingerCount > g.spec.fingers && !g.state.isActive { g.fail(at: sample.time, into: &reports) }
    }

    /// Whether the sample is of a finger the drag follows.
    @inline(__always)
    private func isOwn(_ sample: TouchSample, _ g: borrowing RecognizerCore) -> Bool {
        guard let position = g.fingers.down.position(of: sample.finger) else { return false }
        return position < g.spec.fingers
    }

    /// Always inlined into the recognizer's input: a drag hears every move of its fingers.
    @inline(__always)
    func moved(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        guard g.fingerCount == g.spec.fingers || g.state.isActive else { return }
        guard isOwn(sample, g) else { return }
        let translation = g.centroid - g.startCentroid
        if g.state.isActive {
            report(.changed, translation, at: sample.time, &g, &reports)
        } else if translation.length >= g.spec.minimumDistance {
            report(.began, translation, at: sample.time, &g, &reports)
        }
    }

    func ended(_ sample: TouchSample, _ g: inout RecognizerCore, _ reports: inout [GestureArena.Report]) {
        if g.state.isActive {
            guard isOwn(sample, g) else { return }
            report(.ended, g.centroid - g.startCentroid, at: sample.time, &g, &reports)
        } else if g.fingerCount == 1 {
            g.fail(at: sample.time, into: &reports)
        }
    }

    @inline(__always)
    private func report(
        _ kind: GestureEventKind, _ translation: Point, at time: EventTime, _ g: inout RecognizerCore,
        _ reports: inout [GestureArena.Report]
    ) {
        var event = g.event(kind, at: time)
        event.translation = translation
        event.velocity = g.velocity
        g.report(event, into: &reports)
    }
}
