/// The decoder's side of the stuck-touch rules (`StuckTouchPolicy`): the watch sees every finger event it hands on,
/// and the caller cancels what passed a limit when time reaches `stuckDeadline()`.
extension TouchDecoder {
    /// The earliest time a live touch passes a stuck-touch limit; nil with the rules off or none to pass.
    public mutating func stuckDeadline() -> EventTime? { stuckWatch?.deadline() }

    /// Cancels the touches past a limit at `time` (`cancel`, and a `frameEnd`): each is then ignored until its
    /// tracking id ends, as a palm is, and a new tracking id in its slot is a new touch. Returns what it cancelled.
    public mutating func cancelStuckTouches(
        at time: EventTime, into output: inout some DecoderOutputSink
    ) -> [StuckTouchCancel] {
        guard var watch = stuckWatch.take() else { return [] }
        let time = advanceTime(to: time, counting: false)
        let due = watch.takeDue(at: time)
        stuckWatch = watch
        var cancelled: [StuckTouchCancel] = []
        for item in due {
            let found =
                touchProtocol == .contactReports
                ? contacts.cancelStuck(item.finger, at: time, into: &output)
                : slots.cancelStuck(item.finger, inSlot: Int(item.slot), at: time, into: &output)
            if found { cancelled.append(item) }
        }
        diagnostics.stuckCancels += cancelled.count
        if !cancelled.isEmpty { output.frameEnd(time) }
        return cancelled
    }

    /// Runs `body` with the output seen by the watch (moved out of the decoder meanwhile, so `body` runs the
    /// decoder's own path).
    mutating func watchingStuckTouches<Output: DecoderOutputSink>(
        _ output: inout Output, _ body: (inout TouchDecoder, inout StuckWatchingSink<Output>) -> Void
    ) {
        // Moved out, so the watch's storage is not shared while it changes (no copy a frame).
        guard var watch = stuckWatch.take() else { return }
        withUnsafeMutablePointer(to: &output) { output in
            withUnsafeMutablePointer(to: &watch) { watch in
                var sink = StuckWatchingSink(output: output, watch: watch)
                body(&self, &sink)
            }
        }
        stuckWatch = watch
    }
}

extension SlotDecoder {
    /// Ends the touch reported in `slot` if it is still `finger`, and ignores its tracking id until it ends.
    mutating func cancelStuck(
        _ finger: FingerID, inSlot index: Int, at time: EventTime, into output: inout some DecoderOutputSink
    ) -> Bool {
        guard index >= 0, index < slots.count, let touch = reported[index], touch.finger == finger else { return false }
        output.finger(
            FingerEvent(phase: .cancel, finger: finger, slot: Int32(index), time: time, contact: touch.contact))
        forget(slot: index, ignoring: touch.trackingID)
        return true
    }
}

extension ContactReportDecoder {
    /// Ends the live contact `finger`: still matched frame by frame so that it keeps its identity, never reported.
    mutating func cancelStuck(
        _ finger: FingerID, at time: EventTime, into output: inout some DecoderOutputSink
    ) -> Bool {
        guard let touch = live.first(where: { $0.finger == finger && !$0.ignored }) else { return false }
        output.finger(
            FingerEvent(phase: .cancel, finger: finger, slot: touch.slot, time: time, contact: touch.report.contact))
        ignore(finger)
        return true
    }
}
