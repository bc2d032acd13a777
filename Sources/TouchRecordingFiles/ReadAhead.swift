import TouchCore
import TouchFormats
import TouchPosix

/// A pass over a recording read and parsed on a thread of its own, a few batches ahead of the caller, who gets
/// the same batches in the same order on its own thread: `touchd replay` parses while its engine runs.
enum ReadAhead {
    /// Runs `pass` on a worker thread and hands its batches to `body` here, holding at most `batches` of them.
    /// - Returns: how the pass ended; nil when no thread could be had (nothing was read: the caller reads in order).
    static func run(
        _ pass: inout RecordingPass, batches: Int, _ body: (ArraySlice<InputEvent>) -> Void
    ) -> Result<Void, RecordingError>? {
        let reader = Reader(pass, handoff: BoundedHandoff(capacity: batches))
        guard let worker = try? WorkerThread({ reader.read() }) else { return nil }
        do {
            // Whatever way the loop is left, a reader waiting for room is let go before it is joined.
            defer { reader.handoff.cancel() }
            while let batch = reader.handoff.take() { body(batch[...]) }
        }
        let outcome = worker.join()
        // The pass comes back with where it ended, as a pass read in order would.
        pass = reader.pass
        return outcome
    }

    /// The pass, handed to the worker, which is its only user until it is joined.
    private final class Reader: @unchecked Sendable {
        var pass: RecordingPass
        let handoff: BoundedHandoff<[InputEvent]>

        init(_ pass: RecordingPass, handoff: BoundedHandoff<[InputEvent]>) {
            self.pass = pass
            self.handoff = handoff
        }

        func read() -> Result<Void, RecordingError> {
            defer { handoff.finish() }
            let handoff = handoff
            return Result { () throws(RecordingError) in
                // The batch is the parser's array, emptied for the next: a copy goes across.
                try pass.run(batch: { events in handoff.put(Array(events)) }, skip: { _ in })
            }
        }
    }
}
