import Synchronization
import TouchCore
import TouchFormats
import TouchPosix

/// The first pass over a large evemu file in two halves at once, the second on a thread of its own, with the
/// survey the whole pass in order would give: the same counts and statistics, the same first error (the first
/// half's, else the second's, at its line in the whole file), or nothing, and the caller reads the whole in order.
///
/// The halves meet at a line's start. Every evemu line but a description line (N:, I:, P:, B:, A:) reads the same
/// whatever came before it: event lines, comments, blank lines, and what is wrong with a bad line. So the second
/// half can be read by a parser that has seen nothing before. A description line in it builds on the ones before:
/// the second half stops there and the split gives up. The second half also stops at its first bad line unless bad
/// lines are skipped (that line is the error, unless the first half has one), and as soon as the first half fails.
enum SplitSurvey {
    /// Where the second half may start: the first line that starts at or after the middle, within this much.
    private static let searchLength = 64 * 1024

    static func run(
        _ input: RecordingInput, file: String, options: ReadOptions, bufferSize: Int, batchSize: Int
    ) throws(RecordingError) -> Survey? {
        guard let size = input.byteCount, size >= 2, let middle = try lineStart(in: input, from: size / 2, size: size)
        else { return nil }
        let secondHalf = SecondHalf(
            input.part(from: middle, to: nil), file: file, options: options, bufferSize: bufferSize,
            batchSize: batchSize)
        guard let worker = try? WorkerThread({ secondHalf.survey() }) else { return nil }
        var firstPass = RecordingPass.evemuPart(
            source: input.part(from: 0, to: middle), file: file, options: options, bufferSize: bufferSize,
            batchSize: batchSize, startsText: true, stopsAtDescription: false)
        let first = Result { () throws(RecordingError) in try firstPass.survey() }
        if case .failure = first { secondHalf.cancel() }
        let second = worker.join()
        var survey = try first.get()
        let linesBefore = firstPass.linesRead
        // Where the second half said something of the device, it stopped there; any error came before it.
        guard secondHalf.pass.lastFacts.description == nil else { return nil }
        let later: Survey
        do {
            later = try second.get()
        } catch {
            throw error.shifted(byLines: linesBefore)
        }
        survey.append(later, linesBefore: linesBefore)
        return survey
    }

    /// The offset of the first line that starts at or after `offset` (just after a `\n`), if one does before `size`.
    private static func lineStart(in input: RecordingInput, from offset: Int, size: Int) throws(RecordingError)
        -> Int?
    {
        let bytes = try input.part(from: offset - 1, to: min(offset - 1 + searchLength, size)).read(upTo: searchLength)
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let start = offset + newline
        return start < size ? start : nil
    }

    /// The second half's pass, handed to its thread, which is its only user until it is joined; `cancel` may come
    /// from the first half's thread at any time.
    private final class SecondHalf: @unchecked Sendable {
        var pass: RecordingPass
        private let cancelled = Atomic<Bool>(false)

        init(_ source: RecordingInput, file: String, options: ReadOptions, bufferSize: Int, batchSize: Int) {
            pass = RecordingPass.evemuPart(
                source: source, file: file, options: options, bufferSize: bufferSize, batchSize: batchSize,
                startsText: false, stopsAtDescription: true)
            pass.isCancelled = { [unowned self] in cancelled.load(ordering: .relaxed) }
        }

        func survey() -> Result<Survey, RecordingError> {
            Result { () throws(RecordingError) in try pass.survey() }
        }

        func cancel() { cancelled.store(true, ordering: .relaxed) }
    }
}
