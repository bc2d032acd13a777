import TouchCore
import TouchPosix

/// The first pass over a large evemu file in two halves at once, the second on a thread of its own, with the
/// survey the whole pass in order would give: the same counts and statistics, the same first error (the first
/// half's, else the second's, at its line in the whole file), or nothing, and the caller reads the whole in order.
///
/// The halves meet at a line's start. Every evemu line but a description line (N:, I:, P:, B:, A:) reads the same
/// whatever came before it: event lines, comments, blank lines, and what is wrong with a bad line. So the second
/// half can be read by a parser that has seen nothing before; a description line in it (which builds on the ones
/// before) makes the split give up. The second half is read with every bad line skipped, so that whether it held
/// a description line is known even after a bad line; without `skipBadLines`, its first bad line is the error.
enum SplitSurvey {
    /// Where the second half may start: the first line that starts at or after the middle, within this much.
    private static let searchLength = 64 * 1024

    static func run(
        _ input: RecordingInput, file: String, options: ReadOptions, bufferSize: Int, batchSize: Int
    ) throws(RecordingError) -> Survey? {
        guard let size = input.byteCount, size >= 2, let middle = try lineStart(in: input, from: size / 2, size: size)
        else { return nil }
        let secondHalf = SecondHalf(
            LinePass(
                lines: LineReader(input.part(from: middle, to: nil), bufferSize: bufferSize, startsText: false),
                makeParser: { EvemuLineParser(file: file) }, skipBadLines: true, batchSize: batchSize))
        guard let worker = try? WorkerThread({ secondHalf.survey() }) else { return nil }
        var firstPass = LinePass(
            lines: LineReader(input.part(from: 0, to: middle), bufferSize: bufferSize),
            makeParser: { EvemuLineParser(file: file) }, skipBadLines: options.skipBadLines, batchSize: batchSize)
        let first = Result { () throws(RecordingError) in try Survey.of(&firstPass) }
        let second = worker.join()
        var survey = try first.get()
        let later = try second.get()
        guard later.facts.description == nil else { return nil }
        let linesBefore = firstPass.lines.number
        if !options.skipBadLines, let error = later.firstSkipped { throw error.shifted(byLines: linesBefore) }
        survey.append(later, linesBefore: linesBefore)
        return survey
    }

    /// The offset of the first line that starts at or after `offset` (just after a `\n`), if one does before `size`.
    private static func lineStart(in input: RecordingInput, from offset: Int, size: Int) throws(RecordingError)
        -> Int?
    {
        let part = input.part(from: offset - 1, to: min(offset - 1 + searchLength, size))
        var bytes = [UInt8](repeating: 0, count: searchLength)
        var count = 0
        while count < bytes.count {
            let start = count
            let got = try bytes.withUnsafeMutableBytes { raw in
                Result { () throws(RecordingError) in
                    try part.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
                }
            }.get()
            if got == 0 { break }
            count += got
        }
        guard let newline = bytes[0..<count].firstIndex(of: ASCII.newline) else { return nil }
        let start = offset + newline
        return start < size ? start : nil
    }

    /// The second half's pass, handed to its thread, which is its only user until it is joined.
    private final class SecondHalf: @unchecked Sendable {
        var pass: LinePass<EvemuLineParser>
        init(_ pass: LinePass<EvemuLineParser>) { self.pass = pass }

        func survey() -> Result<Survey, RecordingError> {
            Result { () throws(RecordingError) in try Survey.of(&pass) }
        }
    }
}
