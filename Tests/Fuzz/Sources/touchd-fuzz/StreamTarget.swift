import TouchCore
import TouchFormats
import TouchRecordingFiles

/// FUZZ_TARGET=stream: the streaming reader (`RecordingStream`, what `touchd replay` reads with) against the
/// whole-file reader on any bytes: the same format, description, version, skipped lines and events, or the same
/// error. The first two bytes pick the buffer size (1 to 32 bytes, so that lines cross reads) and the batch size,
/// whether bad lines are skipped, and whether the stream is read as `touchd replay` reads it with two processors:
/// an evemu first pass in two halves at once (`SplitSurvey`, whatever the size), the second pass read ahead.
enum StreamTarget {
    static func check(_ bytes: [UInt8]) {
        let bufferSize = Int(bytes.first ?? 0) % 32 + 1
        let batchSize = Int(bytes.dropFirst().first ?? 0) % 8 + 1
        let options = ReadOptions(skipBadLines: (bytes.first ?? 0) & 0x80 != 0)
        let threaded = (bytes.dropFirst().first ?? 0) & 0x80 != 0
        // Named stdin, which has no sibling description files to look for.
        let name = "stdin"
        let whole: Result<RecordingInfo, RecordingError>
        var wholeEvents: [InputEvent] = []
        if let format = FormatDetection.detect(bytes) {
            do {
                var recording = try RecordingParser.parse(bytes, format: format, file: name, options: options)
                // As RecordingLoader.load settles it for a file without siblings.
                if recording.descriptionSource == .inferred {
                    recording.description = DescriptionInference.infer(
                        from: recording.events, name: "unknown device (inferred from \(name))")
                } else {
                    recording.inferredAxes = DescriptionInference.complete(
                        &recording.description, from: recording.events)
                }
                wholeEvents = recording.events
                whole = .success(recording.info)
            } catch {
                whole = .failure(error)
            }
        } else {
            whole = .failure(RecordingError(.unknownFormat, file: name, "?"))
        }
        var streamedEvents: [InputEvent] = []
        let streamed: Result<RecordingInfo, RecordingError>
        do {
            let stream = try RecordingStream(
                input: RecordingInput(bytes: bytes, name: name), options: options, bufferSize: bufferSize,
                batchSize: batchSize, splitSize: threaded ? 1 : nil)
            try stream.forEachBatch(readingAhead: threaded) { batch in
                precondition(batch.count <= max(batchSize, 4096), "a batch of \(batch.count) events")
                streamedEvents.append(contentsOf: batch)
            }
            precondition(stream.eventCount == streamedEvents.count, "events counted \(stream.eventCount)")
            streamed = .success(stream.info)
        } catch {
            streamed = .failure(error)
        }
        switch (whole, streamed) {
        case (.success(let a), .success(let b)):
            precondition(a == b, "info differs: \(a) streamed \(b)")
            precondition(wholeEvents == streamedEvents, "events differ")
        case (.failure(let a), .failure(let b)):
            precondition(a.kind == .unknownFormat ? b.kind == .unknownFormat : a == b, "errors differ: \(a) / \(b)")
        default:
            preconditionFailure("one reader failed, the other did not: \(whole) / \(streamed)")
        }
    }
}
