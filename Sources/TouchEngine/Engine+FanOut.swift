import TouchCore
import TouchJSON
import TouchScene
import TouchWire

extension Engine {
    /// Shows the events dispatched since the last call to the driver's output, then queues them for clients. The
    /// buffer is emptied only once it holds a few turns' worth: a turn's few events removed one by one cost a
    /// uniqueness test each.
    func broadcastDispatched() {
        guard dispatchBuffer.count > dispatchedBefore else { return }
        // Lent (moved out and back, an empty array in its place meanwhile): passed as it is, it was retained and
        // released for the call, as the engine's methods that the fan-out calls might replace it. Nothing in the
        // fan-out dispatches.
        var events: [DispatchEvent] = []
        swap(&events, &dispatchBuffer)
        showAndQueue(events)
        assert(dispatchBuffer.isEmpty, "the fan-out dispatched")
        swap(&events, &dispatchBuffer)
        noteDispatchedShown()
    }

    /// `broadcastDispatched`'s work on the dispatched events where they are (`dispatchBuffer`'s, lent: `process`
    /// has them in its sink still). Inlined: a call a frame.
    @inline(__always)
    func showAndQueue(_ events: [DispatchEvent]) {
        let start = dispatchedBefore
        guard events.count > start else { return }
        output?.dispatched(events, from: start)
        guard !subscribers.isEmpty else { return }
        // Lent like the events; a disconnect on the way (overflow) leaves the lent subscribers alone
        // (`isFanningOut`): the clients it closed are removed here, when the fan-out is done.
        var takers: [ClientState] = []
        swap(&takers, &subscribers)
        isFanningOut = true
        broadcast(events, from: start, to: takers)
        isFanningOut = false
        assert(subscribers.isEmpty, "the fan-out subscribed")
        swap(&takers, &subscribers)
        if subscribersClosedInFanOut {
            subscribersClosedInFanOut = false
            subscribers.removeAll { $0.isClosed }
        }
    }

    /// The dispatched events are shown and queued: the next turn starts after them.
    func noteDispatchedShown() {
        if dispatchBuffer.count >= 256 {
            dispatchBuffer.removeAll(keepingCapacity: true)
            dispatchedBefore = 0
        } else {
            dispatchedBefore = dispatchBuffer.count
        }
    }

    /// Queues each event for its takers: the subscribers whose subscription admits its route, grouped by the keys
    /// they select (`fields`). Each selection is encoded once, into the queue of its first taker, and its bytes are
    /// copied from there into the queues of the takers after it that select alike. An event no one takes is not
    /// encoded at all. `takers` holds each client strongly for the whole call: one disconnected on the way
    /// (overflow) stays in it, marked closed, and is skipped.
    private func broadcast(_ events: [DispatchEvent], from start: Int, to takers: [ClientState]) {
        // The selections encoded for the event at hand: with the taker whose queue holds each line, and how the line
        // may be coalesced.
        encodedSelections.reserve(takers.count)
        let encoded = encodedSelections.base
        // By position, not `for event in events`, which copied each event.
        for position in start..<events.count {
            // The kind alone decides for a subscriber that filters; the whole route (region, device) is looked at
            // only for one that filters by them. Found once a taker needs it: one that takes every event does not.
            var knownKind: EventKind?
            func kind() -> EventKind {
                if let knownKind { return knownKind }
                let found = EventRoute.kind(of: events, at: position)
                knownKind = found
                return found
            }
            var encodedCount = 0
            for index in takers.indices {
                // Unretained: `takers` holds each client strongly for the whole call, and nothing changes it; a
                // strong reference retained and released the client for every event.
                Unmanaged.passUnretained(takers[index])._withUnsafeGuaranteedRef { taker in
                    guard !taker.isClosed else { return }
                    let fields: FieldSelection
                    if taker.admitsEverything {
                        // Its whole selection: the encoder reads the keys of the line's kind from it.
                        fields = taker.fields
                    } else {
                        guard taker.admits(kind(), events, at: position) else { return }
                        fields = taker.fields(for: kind())
                    }
                    var found: EncodedSelection?
                    for done in UnsafeBufferPointer(start: encoded, count: encodedCount) where done.fields == fields {
                        found = done
                    }
                    let outcome: OutboundQueue.Outcome
                    if let found {
                        // A taker closed on the way (overflow) keeps its queue's bytes: the others of its selection
                        // still copy the line from it.
                        outcome = found.queueHolder._withUnsafeGuaranteedRef { holder in
                            holder.queue.withLastLine { taker.enqueue($0, kind: found.coalescing, at: now) }
                        }
                    } else {
                        let lineStart = taker.queue.end
                        let coalescing = DispatchEventEncoder.encode(
                            events, at: position, selecting: fields, into: &taker.queue.tail)
                        outcome = taker.queueWritten(from: lineStart, kind: coalescing, at: now)
                        // Noted for the takers after this one: the last has none.
                        if index + 1 < takers.count {
                            (encoded + encodedCount).initialize(
                                to: EncodedSelection(
                                    fields: fields, queueHolder: Unmanaged.passUnretained(taker),
                                    coalescing: coalescing))
                            encodedCount += 1
                        }
                    }
                    settle(outcome, for: taker)
                }
            }
        }
    }

    /// Sends a notice (device, scene) to subscribers of that kind; a device notice only to those whose device
    /// filter admits its device.
    func notify(_ bytes: [UInt8], kind: EventKind, device: String? = nil) {
        for client in subscribers {
            guard client.subscription?.admits(kind, device: device) == true else { continue }
            settle(bytes.withUnsafeBytes { client.enqueue($0, kind: .essential, at: now) }, for: client)
        }
    }

    /// What a queued event means for its client: flush it, note that it is slow, or let it go. Inlined: for a line
    /// that is simply queued, the call cost more than the test.
    @inline(__always)
    private func settle(_ outcome: OutboundQueue.Outcome, for client: ClientState) {
        switch outcome {
        case .queued:
            requestFlush(client)
        case .coalesced(let dropped):
            log(.debug, "client \(client.id) is slow: \(dropped) superseded lines dropped")
            requestFlush(client)
        case .overflow:
            disconnect(
                client, reason: "did not read: its queue of \(settings.queueBytes) bytes overflowed")
        }
    }
}

/// A field selection encoded for the event at hand: the taker whose queue holds its line, and how the line may be
/// coalesced. Plain values (the taker unretained: the fan-out's `takers` holds it).
struct EncodedSelection {
    var fields: FieldSelection
    var queueHolder: Unmanaged<ClientState>
    var coalescing: LineCoalescing
}

/// Room for the fan-out's `EncodedSelection`s, one a taker: the engine's, grown with the subscribers and freed with
/// the engine (a temporary allocation on the stack, and the closure it takes, cost more each frame).
struct EncodedSelections {
    private(set) var base = UnsafeMutablePointer<EncodedSelection>.allocate(capacity: 4)
    private var capacity = 4

    /// Room for `count` selections; what was there is not kept (each event starts with none).
    mutating func reserve(_ count: Int) {
        guard count > capacity else { return }
        base.deallocate()
        capacity = max(count, capacity * 2)
        base = .allocate(capacity: capacity)
    }

    func deallocate() { base.deallocate() }
}
