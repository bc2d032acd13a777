import TouchCore

/// The taps in a stream of finger events: one per finger, from its down to its up, at the mean of the positions
/// it reported (a tap's first contact is often the least settled), in the order the fingers went down. A finger
/// still down at the end counts as a tap too; a cancelled one (a palm) does not.
public struct CalibrationTaps {
    private var open: [FingerID: (order: Int, sumX: Int64, sumY: Int64, count: Int64)] = [:]
    private var finished: [(order: Int, x: Double, y: Double)] = []
    private var downs = 0

    public init() {}

    public mutating func take(_ event: FingerEvent) {
        switch event.phase {
        case .down:
            open[event.finger] = (downs, Int64(event.contact.x), Int64(event.contact.y), 1)
            downs += 1
        case .move:
            open[event.finger]?.sumX += Int64(event.contact.x)
            open[event.finger]?.sumY += Int64(event.contact.y)
            open[event.finger]?.count += 1
        case .up:
            close(event.finger)
        case .cancel:
            open[event.finger] = nil
        }
    }

    /// The taps in device units, in the order their fingers went down.
    public mutating func finish() -> [(x: Double, y: Double)] {
        for finger in open.keys { close(finger) }
        return finished.sorted { $0.order < $1.order }.map { ($0.x, $0.y) }
    }

    private mutating func close(_ finger: FingerID) {
        guard let tap = open.removeValue(forKey: finger) else { return }
        let count = Double(tap.count)
        finished.append((tap.order, Double(tap.sumX) / count, Double(tap.sumY) / count))
    }
}
