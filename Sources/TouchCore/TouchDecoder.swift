/// Turns one device's evdev event stream into finger streams: `down`, `move`, `up`, `cancel`, and a
/// `frameEnd` after each `SYN_REPORT` that changed anything.
///
/// Pure and clock-free: it sees only the events and their times, so live input and replay take the same path.
/// Feed it with `process(_:into:)`; after `SYN_DROPPED` either call `resync(to:at:into:)` with the kernel's state
/// (the live path, via libevdev) or just keep feeding events (a recording), in which case every live touch is
/// cancelled when the next event arrives, because nothing can say which of them survived the drop.
public struct TouchDecoder {
    public struct Options: Sendable {
        /// Protocol A: the longest jump, as a fraction of the device diagonal, that still continues a contact.
        public var contactJumpLimit: Double = 0.25
        /// The first finger id handed out; ids then count up and never repeat.
        public var firstFingerID: UInt32 = 1
        /// A touch whose major axis (`ABS_MT_TOUCH_MAJOR`, else `ABS_MT_WIDTH_MAJOR`) passes this, in device units,
        /// is a palm: cancelled if it was reported, never reported if it began so. Nil: no size limit.
        public var palmMajor: Int32?
        /// When a touch the panel never lifts is cancelled (`StuckTouchPolicy`); off unless set.
        public var stuckTouches = StuckTouchPolicy.off

        public init() {}
    }

    public let description: DeviceDescription
    public let touchProtocol: TouchProtocol
    public internal(set) var diagnostics = DecoderDiagnostics()
    /// The latest event time seen. Time never goes back past the decoder: an event stamped earlier is treated
    /// as if stamped now (counted in `diagnostics.backwardTimes`), so finger events, the dispatcher and the
    /// gesture timers after it see non-decreasing time (docs/decoding.md).
    public var latestTime: EventTime? { latestTimeSeen }
    /// `latestTime`'s storage, set from inlined code (`takeAxis`).
    @usableFromInline var latestTimeSeen: EventTime?

    @usableFromInline var slots: SlotDecoder
    var contacts: ContactReportDecoder
    private var nextFinger: UInt32
    /// Single touch: the synthetic tracking id of the open contact, counted up per `BTN_TOUCH` press.
    private var singleTouchTrackingID: Int32 = 0
    @usableFromInline var droppingUntilReport = false
    @usableFromInline var awaitingResync = false
    /// Nil when `Options.stuckTouches` is off: the decoder's path is then the same as without the rules.
    var stuckWatch: StuckTouchWatch?
    /// Whether there is a `stuckWatch`, as a flag: testing the optional went through its value witness every frame.
    /// (Inside `watchingStuckTouches` the watch is moved out while this stays true.)
    let watchesStuck: Bool

    public init(description: DeviceDescription, options: Options = Options()) {
        self.description = description
        self.touchProtocol = description.touchProtocol
        self.nextFinger = options.firstFingerID
        slots = SlotDecoder(slotCount: touchProtocol == .slotted ? description.slotCount : 1)
        let width = Double(description.xAxis.map { Int64($0.maximum) - Int64($0.minimum) } ?? 0)
        let height = Double(description.yAxis.map { Int64($0.maximum) - Int64($0.minimum) } ?? 0)
        let limit = options.contactJumpLimit * (width * width + height * height).squareRoot()
        // Int64(Double) traps beyond its range: a huge axis range or jump limit saturates instead.
        let limitSquared = limit * limit
        contacts = ContactReportDecoder(
            maxJumpSquared: limitSquared.isNaN ? 0 : limitSquared >= 0x1p63 ? Int64.max : Int64(limitSquared))
        slots.palmMajor = options.palmMajor
        contacts.palmMajor = options.palmMajor
        watchesStuck = !options.stuckTouches.isOff
        if watchesStuck {
            stuckWatch = StuckTouchWatch(policy: options.stuckTouches, description: description)
        }
    }

    /// Touches consumers currently see as down.
    public var liveFingerCount: Int {
        touchProtocol == .contactReports ? contacts.liveCount : slots.liveCount
    }

    /// Whether a drop ended and the decoder waits for `resync(to:at:into:)`.
    public var needsResync: Bool { awaitingResync }

    /// Takes the usual input event, an absolute axis of a protocol B frame in progress, as `process(_:into:)`
    /// would: into its slot (or, for `ABS_MT_SLOT`, choosing the slot), with nothing to output until the frame's
    /// end. False, having changed nothing, for any other event (a tracking id, a slot out of range, a time gone
    /// back, another protocol), which `process(_:into:)` takes. Inlinable, to be inlined into the caller's loop:
    /// for such an event a call and its frame cost as much as the store.
    @inlinable
    public mutating func takeAxis(_ event: InputEvent) -> Bool {
        guard event.type == EventType.abs, touchProtocol == .slotted, event.code != AbsCode.mtTrackingID,
            !awaitingResync, !droppingUntilReport
        else { return false }
        if let latest = latestTimeSeen, event.time < latest { return false }
        if event.code == AbsCode.mtSlot {
            guard slots.hasSlot(event.value) else { return false }
            slots.currentSlot = Int(event.value)
        } else if SlotDecoder.isAxis(event.code) {
            slots.setAxis(event.code, event.value)
        }
        // Any other axis (ABS_X, ABS_Y: the single-touch emulation of an MT device) only advances the time.
        latestTimeSeen = event.time
        return true
    }

    /// Feeds one event. Finger changes are appended to `output` when a `SYN_REPORT` closes a frame.
    public mutating func process(_ event: InputEvent, into output: inout some DecoderOutputSink) {
        var event = event
        event.time = advanceTime(to: event.time, counting: true)
        if awaitingResync {
            resyncBlind(at: event.time, into: &output)
        }
        if droppingUntilReport {
            if event.isSynReport {
                droppingUntilReport = false
                awaitingResync = true
            } else {
                diagnostics.eventsDiscardedInDrop += 1
            }
            return
        }
        switch event.type {
        case EventType.syn:
            if !watchesStuck {
                processSyn(event, into: &output)
            } else {
                watchingStuckTouches(&output) { $0.processSyn(event, into: &$1) }
            }
        case EventType.abs:
            processAbs(event)
        case EventType.key where event.code == KeyCode.touch:
            processTouchKey(event.value)
        default:
            break
        }
    }

    /// Resolves a drop from the kernel's current state: touches that vanished or changed id are cancelled,
    /// new ones go down, the rest move to their current place.
    public mutating func resync(
        to snapshot: DeviceSnapshot, at time: EventTime, into output: inout some DecoderOutputSink
    ) {
        // The optional, not the flag: the resync runs again inside with the watch moved out.
        if stuckWatch != nil {
            watchingStuckTouches(&output) { $0.resync(to: snapshot, at: time, into: &$1) }
            return
        }
        let time = advanceTime(to: time, counting: false)
        droppingUntilReport = false
        awaitingResync = false
        diagnostics.snapshotResyncs += 1
        var emitted = false
        switch touchProtocol {
        case .slotted:
            emitted = slots.resync(
                to: snapshot, at: time, nextFinger: &nextFinger, diagnostics: &diagnostics, into: &output)
        case .singleTouch:
            var translated = snapshot
            if let first = snapshot.slots.first, first.trackingID >= 0 {
                let openID = slots.slots[0].trackingID
                if openID < 0 { singleTouchTrackingID &+= 1 }
                translated.slots[0].trackingID = openID >= 0 ? openID : singleTouchTrackingID
            }
            emitted = slots.resync(
                to: translated, at: time, nextFinger: &nextFinger, diagnostics: &diagnostics, into: &output)
        case .contactReports:
            contacts.discardFrame()  // The next full frame carries the whole state.
        }
        if emitted { output.frameEnd(time) }
    }

    /// Ends every live touch with `cancel`, as when the device is removed or suspended.
    public mutating func cancelAll(at time: EventTime, into output: inout some DecoderOutputSink) {
        let time = advanceTime(to: time, counting: false)
        let emitted =
            touchProtocol == .contactReports
            ? contacts.cancelAll(at: time, into: &output)
            : slots.cancelAll(at: time, into: &output)
        if emitted { output.frameEnd(time) }
        stuckWatch?.reset()
    }

    /// `time`, or the latest time seen when `time` is earlier. Only the stream's own times count as a quirk:
    /// a caller's resync or cancel time that lags an event's (the kernel stamped it first) is not the stream's.
    mutating func advanceTime(to time: EventTime, counting: Bool) -> EventTime {
        if let latest = latestTimeSeen, time < latest {
            if counting { diagnostics.backwardTimes += 1 }
            return latest
        }
        latestTimeSeen = time
        return time
    }

    private mutating func resyncBlind(at time: EventTime, into output: inout some DecoderOutputSink) {
        awaitingResync = false
        if touchProtocol == .contactReports {
            contacts.discardFrame()
            return
        }
        diagnostics.blindResyncs += 1
        cancelAll(at: time, into: &output)
    }

    private mutating func processSyn(_ event: InputEvent, into output: inout some DecoderOutputSink) {
        switch event.code {
        case SynCode.report:
            let emitted =
                touchProtocol == .contactReports
                ? contacts.flush(at: event.time, nextFinger: &nextFinger, diagnostics: &diagnostics, into: &output)
                : slots.flush(
                    at: event.time, endPhase: .up, nextFinger: &nextFinger, diagnostics: &diagnostics,
                    into: &output)
            if emitted { output.frameEnd(event.time) }
        case SynCode.mtReport:
            if touchProtocol == .contactReports {
                contacts.contactReport()
            } else {
                diagnostics.protocolMismatches += 1
            }
        case SynCode.dropped:
            diagnostics.syncDrops += 1
            droppingUntilReport = true
            if touchProtocol == .contactReports { contacts.discardFrame() }
        default:
            break
        }
    }

    // Always inlined into `process`: most input events are absolute axes, and a call's frame (saving the
    // registers the switch uses) would cost about a third of the work.
    @inline(__always)
    private mutating func processAbs(_ event: InputEvent) {
        switch touchProtocol {
        case .slotted:
            switch event.code {
            case AbsCode.mtSlot: slots.selectSlot(event.value, diagnostics: &diagnostics)
            case AbsCode.mtTrackingID: slots.setTrackingID(event.value, diagnostics: &diagnostics)
            case _ where SlotDecoder.isAxis(event.code):
                slots.setAxis(event.code, event.value)
            default: break  // ABS_X/ABS_Y and friends: the single-touch emulation of an MT device.
            }
        case .contactReports:
            switch event.code {
            case AbsCode.mtSlot: diagnostics.protocolMismatches += 1
            case AbsCode.mtTouchMajor...AbsCode.mtDistance: contacts.setAxis(event.code, event.value)
            default: break
            }
        case .singleTouch:
            switch event.code {
            case AbsCode.x: slots.setAxis(AbsCode.mtPositionX, event.value)
            case AbsCode.y: slots.setAxis(AbsCode.mtPositionY, event.value)
            case AbsCode.pressure: slots.setAxis(AbsCode.mtPressure, event.value)
            case AbsCode.distance: slots.setAxis(AbsCode.mtDistance, event.value)
            default: break
            }
        }
    }

    private mutating func processTouchKey(_ value: Int32) {
        switch touchProtocol {
        case .contactReports:
            contacts.touchKey(value)
        case .singleTouch:
            if value != 0 {
                if slots.slots[0].trackingID < 0 {
                    singleTouchTrackingID &+= 1
                    if singleTouchTrackingID < 0 { singleTouchTrackingID = 0 }
                    slots.setTrackingID(singleTouchTrackingID, diagnostics: &diagnostics)
                }
            } else {
                slots.setTrackingID(-1, diagnostics: &diagnostics)
            }
        case .slotted:
            break
        }
    }
}
