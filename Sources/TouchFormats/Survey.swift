import TouchCore

/// What a first pass learns of a recording, or of one part of it, keeping no event: enough to settle the
/// description (`EventStatistics`), count the events and skipped lines, and name the first skipped line.
public struct Survey: Sendable {
    public internal(set) var statistics = EventStatistics()
    public internal(set) var firstEventTime: EventTime?
    public internal(set) var eventCount = 0
    public internal(set) var skippedCount = 0
    public internal(set) var firstSkipped: RecordingError?
    public internal(set) var facts = FileFacts()

    /// Reads `pass` through from its start.
    static func of<Pass: EventPass>(_ pass: inout Pass) throws(RecordingError) -> Survey {
        var survey = Survey()
        let facts = try pass.run(
            batch: { events in
                if survey.firstEventTime == nil { survey.firstEventTime = events.first?.time }
                survey.eventCount += events.count
                survey.statistics.note(events)
            },
            skip: { error in
                if survey.firstSkipped == nil { survey.firstSkipped = error }
                survey.skippedCount += 1
            })
        survey.facts = facts
        return survey
    }

    /// Adds the survey of the part of the same recording that comes after this one's, whose lines are numbered
    /// from 1 at its start: `linesBefore` is how many lines come before it.
    public mutating func append(_ later: Survey, linesBefore: Int) {
        statistics.merge(later.statistics)
        if firstEventTime == nil { firstEventTime = later.firstEventTime }
        eventCount += later.eventCount
        skippedCount += later.skippedCount
        if firstSkipped == nil { firstSkipped = later.firstSkipped?.shifted(byLines: linesBefore) }
        if facts.version == nil { facts.version = later.facts.version }
    }
}

extension RecordingError {
    /// The same error, its line counted `lines` further on.
    public func shifted(byLines lines: Int) -> RecordingError {
        var shifted = self
        shifted.line = line.map { $0 + lines }
        return shifted
    }
}
