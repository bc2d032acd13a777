/// Multitouch protocol A: each frame lists every contact, each closed by `SYN_MT_REPORT`; identities come from
/// matching against the previous frame (`ContactMatcher`).
///
/// A frame counts as a full contact list when it has a `SYN_MT_REPORT`, any MT axis data (the last
/// `SYN_MT_REPORT` may be omitted, per the kernel docs), or `BTN_TOUCH` going to 0 (the lift of the last
/// contact may come without any MT event). A frame with none of these (only keys or MSC events) changes
/// nothing. After `SYN_DROPPED` the next full frame describes the whole state anyway, so no snapshot is needed.
struct ContactReportDecoder {
    struct Report {
        var contact = ContactState()
        var trackingID: Int32?
    }

    struct Live {
        var finger: FingerID
        var slot: Int32
        var report: Report
        /// A palm: matched every frame so it keeps its identity, but never reported.
        var ignored: Bool
    }

    private(set) var live: [Live] = []
    private var frame: [Report] = []
    private var pending = Report()
    private var pendingHasData = false
    private var sawContactReport = false
    private var touchReleased = false
    let maxJumpSquared: Int64
    /// A contact whose major axis passes this (device units) is a palm (`ContactState.isPalm(majorAbove:)`).
    var palmMajor: Int32?

    init(maxJumpSquared: Int64) {
        self.maxJumpSquared = maxJumpSquared
        frame.reserveCapacity(16)
        live.reserveCapacity(16)
    }

    var liveCount: Int { live.reduce(0) { $0 + ($1.ignored ? 0 : 1) } }

    mutating func setAxis(_ code: UInt16, _ value: Int32) {
        if code == AbsCode.mtTrackingID {
            pending.trackingID = value
            pendingHasData = true
        } else if pending.contact.setMultitouchAxis(code, value) {
            pendingHasData = true
        }
    }

    mutating func contactReport() {
        if pendingHasData { frame.append(pending) }
        pending = Report()
        pendingHasData = false
        sawContactReport = true
    }

    mutating func touchKey(_ value: Int32) {
        if value == 0 { touchReleased = true }
    }

    /// Discards the partial frame (used when events were dropped).
    mutating func discardFrame() {
        frame.removeAll(keepingCapacity: true)
        pending = Report()
        pendingHasData = false
        sawContactReport = false
        touchReleased = false
    }

    mutating func flush(
        at time: EventTime, nextFinger: inout UInt32, diagnostics: inout DecoderDiagnostics,
        into output: inout some DecoderOutputSink
    ) -> Bool {
        if pendingHasData { frame.append(pending) }
        defer { discardFrame() }
        guard sawContactReport || touchReleased || !frame.isEmpty else { return false }
        // A tracking id of -1 in protocol A means "no contact" on some drivers.
        frame.removeAll { ($0.trackingID ?? 0) < 0 }

        let previous = live.map {
            ContactMatcher.Point(x: $0.report.contact.x, y: $0.report.contact.y, trackingID: $0.report.trackingID)
        }
        let current = frame.map { ContactMatcher.Point(x: $0.contact.x, y: $0.contact.y, trackingID: $0.trackingID) }
        let matches = ContactMatcher.match(previous: previous, current: current, maxDistanceSquared: maxJumpSquared)

        var emitted = false
        var continued = [Bool](repeating: false, count: live.count)
        for match in matches { if let match { continued[match] = true } }

        // Ends first, so a slot freed here can be reused by a down in the same frame.
        var survivors: [Live] = []
        survivors.reserveCapacity(live.count + frame.count)
        var survivorIndex = [Int](repeating: -1, count: live.count)
        for (index, touch) in live.enumerated() {
            if continued[index] {
                survivorIndex[index] = survivors.count
                survivors.append(touch)
            } else if !touch.ignored {
                output.finger(
                    FingerEvent(
                        phase: .up, finger: touch.finger, slot: touch.slot, time: time,
                        contact: touch.report.contact))
                emitted = true
            }
        }
        for (currentIndex, match) in matches.enumerated() {
            let report = frame[currentIndex]
            if let match {
                let position = survivorIndex[match]
                var touch = survivors[position]
                if !touch.ignored && report.contact.isPalm(majorAbove: palmMajor) {
                    output.finger(
                        FingerEvent(
                            phase: .cancel, finger: touch.finger, slot: touch.slot, time: time,
                            contact: SlotDecoder.asPalm(report.contact)))
                    touch.ignored = true
                    diagnostics.palmCancels += 1
                    if !report.contact.isPalm { diagnostics.palmsBySize += 1 }
                    emitted = true
                } else if !touch.ignored && report.contact != touch.report.contact {
                    output.finger(
                        FingerEvent(
                            phase: .move, finger: touch.finger, slot: touch.slot, time: time,
                            contact: report.contact))
                    emitted = true
                }
                touch.report = report
                survivors[position] = touch
            }
        }
        for (currentIndex, match) in matches.enumerated() where match == nil {
            let report = frame[currentIndex]
            let slot = Self.lowestFreeSlot(in: survivors)
            let finger = FingerID(nextFinger)
            nextFinger &+= 1
            if report.contact.isPalm(majorAbove: palmMajor) {
                diagnostics.palmsSuppressed += 1
                if !report.contact.isPalm { diagnostics.palmsBySize += 1 }
                survivors.append(Live(finger: finger, slot: slot, report: report, ignored: true))
            } else {
                output.finger(
                    FingerEvent(
                        phase: .down, finger: finger, slot: slot, time: time, contact: report.contact))
                survivors.append(Live(finger: finger, slot: slot, report: report, ignored: false))
                emitted = true
            }
        }
        live = survivors
        return emitted
    }

    mutating func cancelAll(at time: EventTime, into output: inout some DecoderOutputSink) -> Bool {
        var emitted = false
        for touch in live where !touch.ignored {
            output.finger(
                FingerEvent(
                    phase: .cancel, finger: touch.finger, slot: touch.slot, time: time,
                    contact: touch.report.contact))
            emitted = true
        }
        live.removeAll(keepingCapacity: true)
        discardFrame()
        return emitted
    }

    /// Marks a live contact as one never reported again (matched on, so it keeps its identity until it lifts).
    mutating func ignore(_ finger: FingerID) {
        guard let index = live.firstIndex(where: { $0.finger == finger }) else { return }
        live[index].ignored = true
    }

    private static func lowestFreeSlot(in touches: [Live]) -> Int32 {
        var slot: Int32 = 0
        while touches.contains(where: { $0.slot == slot }) { slot += 1 }
        return slot
    }
}
