import TouchCore
import TouchGestures

/// Tap count: a down on a region soon after a quick, still tap there (within the double-tap interval and slop)
/// counts one more tap; every touch event of that finger carries the count.
extension Dispatcher {
    struct TapRecord {
        var time: EventTime
        var location: Point
        var count: Int
    }

    func tapCount(on target: Int, at location: Point, time: EventTime) -> Int {
        guard let last = tapHistory[target], time - last.time <= GestureDefaults.doubleTapInterval,
            location.distance(to: last.location) <= GestureDefaults.doubleTapSlop
        else { return 1 }
        return last.count + 1
    }

    /// A quick, still lift is remembered for the next down; anything else forgets the region's taps.
    func recordTap(on target: Int, _ state: FingerState, _ mapped: MappedFingerEvent) {
        let quick = mapped.event.time - state.downTime <= GestureDefaults.tapMaximumHold
        if mapped.event.phase == .up && quick && state.maxMovement <= GestureDefaults.touchSlop {
            tapHistory[target] = TapRecord(time: mapped.event.time, location: state.downLocation, count: state.tapCount)
        } else {
            tapHistory[target] = nil
        }
    }
}
