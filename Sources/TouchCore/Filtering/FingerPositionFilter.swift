/// One device's jitter filter: the state of each live finger, and the position to report for each finger event.
///
/// Pure: value types, the events' own times, no clock. Fingers are few, so they sit in one array searched from the
/// end (the newest finger is the likeliest); it keeps its capacity, so an event allocates nothing.
///
/// Per phase: a `down` is reported where the kernel put it and starts the finger's state; a `move` is filtered, and
/// suppressed (nil) when its filtered position equals the one reported before; an `up` or `cancel` is never
/// suppressed and carries the filtered position of its own sample (with the hysteresis, where the finger was last
/// reported unless the lift frame moved it past the margin), so a lift never jumps where no move went.
public struct FingerPositionFilter: Sendable {
    public let filter: JitterFilter
    /// The hysteresis margins in force (`.fuzz` only).
    public let hysteresis: FuzzHysteresis?
    /// mtdev's defuzzing before the hysteresis (`.fuzz` on a protocol A device only).
    public let defuzz: MtdevDefuzz?
    private let oneEuro: OneEuroParameters?
    /// `hysteresis` when it is active, else nil: asked once here, not at every move.
    private let activeHysteresis: FuzzHysteresis?
    private var fingers: [Track] = []

    private struct Track: Sendable {
        var finger: FingerID
        /// The position last reported, in device units.
        var x: Double
        var y: Double
        /// mtdev's last filtered position (protocol A), which its next change is measured from.
        var defuzzedX: Int32
        var defuzzedY: Int32
        /// The kernel's last position: what the release on motion measures a step from, and what tells the defuzz
        /// whether the position changed at all.
        var kernelX: Int32
        var kernelY: Int32
        /// The time of the last sample the 1€ filter took.
        var time: EventTime
        var oneEuroX: OneEuroAxis
        var oneEuroY: OneEuroAxis
    }

    public init(filter: JitterFilter, device: DeviceDescription) {
        self.filter = filter
        switch filter {
        case .off:
            hysteresis = nil
            defuzz = nil
            oneEuro = nil
        case .fuzz(let override):
            hysteresis = Self.hysteresis(device: device, fuzz: override)
            defuzz = device.touchProtocol == .contactReports ? MtdevDefuzz(device: device) : nil
            oneEuro = nil
        case .oneEuro(let parameters):
            hysteresis = nil
            defuzz = nil
            oneEuro = parameters
        }
        activeHysteresis = hysteresis.flatMap { $0.isActive ? $0 : nil }
        fingers.reserveCapacity(DeviceDescription.maximumSlots)
    }

    /// libinput reads a protocol A panel through mtdev, and applies its own hysteresis after it only where it
    /// would on any panel: elsewhere mtdev's defuzzing is all the filtering there is.
    private static func hysteresis(device: DeviceDescription, fuzz override: Int32?) -> FuzzHysteresis {
        let hysteresis = FuzzHysteresis(device: device, fuzz: override)
        if device.touchProtocol == .contactReports && hysteresis.release != .edge {
            return FuzzHysteresis(marginX: 0, marginY: 0)
        }
        return hysteresis
    }

    /// Whether positions pass through untouched (the pipeline then skips the filter entirely).
    public var isOff: Bool {
        if case .off = filter { return true }
        if defuzz?.isActive == true { return false }
        return hysteresis.map { !$0.isActive } ?? false
    }

    /// Live fingers with filter state.
    public var trackedFingers: Int { fingers.count }

    /// The position to report for `event`, in device units; nil for a move to suppress.
    public mutating func position(for event: FingerEvent) -> (x: Double, y: Double)? {
        let x = Double(event.contact.x)
        let y = Double(event.contact.y)
        let index = fingers.lastIndex { $0.finger == event.finger }
        if event.phase == .down || index == nil {
            let track = Track(
                finger: event.finger, x: x, y: y, defuzzedX: event.contact.x, defuzzedY: event.contact.y,
                kernelX: event.contact.x, kernelY: event.contact.y, time: event.time, oneEuroX: OneEuroAxis(start: x),
                oneEuroY: OneEuroAxis(start: y))
            if let index {
                fingers[index] = track
            } else if event.phase == .down || event.phase == .move {
                fingers.append(track)
            }
            return (x, y)
        }
        guard let index else { return (x, y) }
        let lifts = event.phase == .up || event.phase == .cancel
        // The track changed through one access to the array, in which the filter's settings are read: passed to
        // `filtered` with `&fingers[index]`, they are read before the array's uniqueness test and kept across it.
        let next: (x: Double, y: Double)? = fingers.withUnsafeMutableBufferPointer { tracks in
            let next = Self.filtered(
                event.contact, lifts: lifts, time: event.time, track: &tracks[index],
                activeHysteresis: activeHysteresis, defuzz: defuzz, oneEuro: oneEuro)
            if lifts { return next }
            if next.x == tracks[index].x && next.y == tracks[index].y { return nil }
            tracks[index].x = next.x
            tracks[index].y = next.y
            return next
        }
        if lifts { fingers.remove(at: index) }
        return next
    }

    private static func filtered(
        _ contact: ContactState, lifts: Bool, time: EventTime, track: inout Track,
        activeHysteresis hysteresis: FuzzHysteresis?,
        defuzz: MtdevDefuzz?, oneEuro: OneEuroParameters?
    ) -> (x: Double, y: Double) {
        var x = Double(contact.x)
        var y = Double(contact.y)
        if let defuzz {
            // mtdev filters a contact's new position, never a lift; and a frame that changed only another axis
            // (touch major, pressure) must not move the finger either.
            if !lifts && (contact.x != track.kernelX || contact.y != track.kernelY) {
                (track.defuzzedX, track.defuzzedY) = defuzz.apply(
                    x: contact.x, y: contact.y, previous: (track.defuzzedX, track.defuzzedY))
            }
            (x, y) = (Double(track.defuzzedX), Double(track.defuzzedY))
        }
        // The kernel's own step (protocol A, where the defuzz runs, only ever gets libinput's edge release, which
        // does not look at it).
        let previous = (x: Double(track.kernelX), y: Double(track.kernelY))
        (track.kernelX, track.kernelY) = (contact.x, contact.y)
        // An inactive hysteresis (nil here) passes the position through, as it would, and no 1€ filter runs with it.
        if let hysteresis {
            return hysteresis.applyActive(x: x, y: y, center: (track.x, track.y), previous: previous)
        }
        guard let oneEuro else { return (x, y) }
        let interval = (time - track.time).seconds
        // Two samples at one time (a clamped backward time): no interval to smooth over; the next sample's speed
        // still spans the change, since the raw value it is measured from stays the earlier one.
        guard interval > 0 else { return (track.x, track.y) }
        track.time = time
        return (
            track.oneEuroX.update(x, interval: interval, parameters: oneEuro),
            track.oneEuroY.update(y, interval: interval, parameters: oneEuro)
        )
    }
}
