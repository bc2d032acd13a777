import TouchCore
import TouchJSON
import TouchScene
import TouchWire

extension Engine {
    /// Shows the dispatched events to the driver's output, then queues them for clients.
    func broadcastDispatched() {
        guard !dispatchBuffer.isEmpty else { return }
        output?.dispatched(dispatchBuffer)
        broadcast(dispatchBuffer)
        dispatchBuffer.removeAllKeepingStorage()
    }

    /// Encodes each event once, and only if a subscriber's filter admits it, and copies its bytes into the queue of
    /// every subscriber that does (or encodes it in place when only one does).
    func broadcast(_ events: [DispatchEvent]) {
        // Nothing to encode when nobody listens (clients that only made requests get no events).
        guard !events.isEmpty, !subscribers.isEmpty else { return }
        // The subscribers as they are now: reading a client from this local array retains nothing, where reading
        // `subscribers` retained each for every event. The array keeps them alive; one disconnected on the way
        // (overflow) is marked closed and skipped, as its removal from `subscribers` skipped it.
        let current = subscribers
        // One subscriber that takes everything (the usual daemon): each line is encoded straight into its queue,
        // before anything the other paths need (the engine's line, the filter test) is looked at.
        if current.count == 1 && current[0].admitsEverything {
            enqueueEncoded(events, to: current[0])
            return
        }
        // Subscribers without a filter or a field selection (the usual case) need only the queue kind: the whole
        // route, with its strings, cost more per event than encoding a frame line.
        let filtering = current.contains { !$0.takesWholeLines }
        // The line is written in a local writer, moved out of `writer` and back: copying a stored property's bytes
        // into each queue retained and released its buffer for every event.
        guard var line = writer.take() else { preconditionFailure("broadcast re-entered") }
        defer { writer = line }
        // By position, not `for event in events`, which copied each event (its strings retained and released).
        for position in events.indices {
            if filtering {
                let route = EventRoute(events, at: position)
                // Who takes it decides the work: no one, no encoding (a frame line for a client that asked for
                // touches only); one, encoded straight into its queue; more, encoded once and copied.
                guard let first = firstTaker(of: route, in: current, from: 0) else { continue }
                guard firstTaker(of: route, in: current, from: first + 1) != nil else {
                    let taker = current[first]
                    let fields = taker.fields(for: route.kind)
                    settle(
                        taker.enqueueWritten(at: now) { encode(events, at: position, selecting: fields, into: &$0) },
                        for: taker)
                    continue
                }
                // Encoded once for each field selection among the takers, for all that selected alike. Which
                // selections are done is kept apart from the takers: one closed on the way (overflow) is no longer a
                // taker, yet the others of its selection had the line with it.
                encodedSelections.removeAllKeepingStorage()
                var next = first
                while let taker = firstTaker(of: route, in: current, from: next) {
                    next = taker + 1
                    let fields = current[taker].fields(for: route.kind)
                    guard !encodedSelections.contains(fields) else { continue }
                    encodedSelections.append(fields)
                    line.reset()
                    let queueKind = encode(events, at: position, selecting: fields, into: &line)
                    enqueue(line, kind: queueKind, to: current, from: taker) {
                        $0.fields(for: route.kind) == fields && $0.admits(route)
                    }
                }
            } else {
                line.reset()
                let queueKind = encode(events, at: position, selecting: .all, into: &line)
                // No route at all, not a nil one: an optional route cost a call to destroy it for every event.
                enqueue(line, kind: queueKind, to: current) { _ in true }
            }
        }
        // `enqueue` reaches the clients unretained: `current` owns them until here, past its last read.
        withExtendedLifetime(current) {}
    }

    /// The position of the first open subscriber from `start` on whose filter admits the route.
    private func firstTaker(of route: EventRoute, in clients: [ClientState], from start: Int) -> Int? {
        for index in start..<clients.count where !clients[index].isClosed && clients[index].admits(route) {
            return index
        }
        return nil
    }

    /// Encodes each event into the client's queue itself: no line written beside it and copied in.
    private func enqueueEncoded(_ events: [DispatchEvent], to client: ClientState) {
        let fields = client.fields
        for position in events.indices {
            // Closed on the way (overflow): the rest is not for it, as `enqueue` skips it.
            guard !client.isClosed else { return }
            let outcome = client.enqueueWritten(at: now) { line in
                encode(events, at: position, selecting: fields, into: &line)
            }
            settle(outcome, for: client)
        }
    }

    /// Copies the line into the queue of every open subscriber from `start` on that `admits`.
    @inline(__always)
    private func enqueue(
        _ line: borrowing JSONWriter, kind: OutboundQueue.Kind, to clients: [ClientState], from start: Int = 0,
        admits: (ClientState) -> Bool
    ) {
        // `clients` holds each client strongly for the whole call (the caller keeps its array alive past the call),
        // and nothing here changes it: a client reached unretained outlives no owner, even when `settle` disconnects
        // it and `clients` is its last. A strong reference retained and released the client for every event.
        for index in start..<clients.count {
            Unmanaged.passUnretained(clients[index])._withUnsafeGuaranteedRef { client in
                guard !client.isClosed, admits(client) else { return }
                let outcome = line.withUnsafeBytes { client.enqueue($0, kind: kind, at: now) }
                settle(outcome, for: client)
            }
        }
    }

    /// Encodes the event at `position` into `line` and returns how a slow client's queue may coalesce it: one look
    /// at the event for both (each `switch` over it copied the event's payload, strings retained and released).
    /// Switched on where the array holds it: an event passed as an argument was copied twice more.
    private func encode(
        _ events: [DispatchEvent], at position: Int, selecting fields: FieldSelection, into line: inout JSONWriter
    ) -> OutboundQueue.Kind {
        // The whole line's printers are called straight, not through the selecting ones: their test of the
        // selection is a call across modules, about 19 instructions a line for the usual subscriber.
        let whole = fields == .all
        switch events[position] {
        case .touch(let touch):
            if whole {
                DispatchEventEncoder.encode(touch, into: &line)
            } else {
                DispatchEventEncoder.encode(touch, selecting: fields, into: &line)
            }
            return .of(touch)
        case .gesture(let region, let gesture):
            if whole {
                DispatchEventEncoder.encode(gesture, region: region, into: &line)
            } else {
                DispatchEventEncoder.encode(gesture, region: region, selecting: fields, into: &line)
            }
            return .of(gesture, region: region)
        case .frame(let device, let time):
            // Straight to the frame's printer, as `DispatchEventEncoder.encode` would: handing it the whole event
            // copied its 197 bytes twice more, for one of the commonest lines.
            FingerEventEncoder.encodeFrame(time: time, device: device, into: &line)
            return .essential
        case .regionMoved, .regionScrolled:
            DispatchEventEncoder.encode(events[position], into: &line)
            return .essential
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
