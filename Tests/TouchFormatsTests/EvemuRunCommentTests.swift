import Testing
import TouchCore
import TouchFormats
import TouchRecordingFiles

/// A run of evemu lines finds each line's end after its comment sixteen bytes at a time (and the last few bytes
/// before the end of the text otherwise): comments of every length up to 64 bytes, of bytes near `\n` in value
/// (tab, 0x0b, 0x0c, 0x8a, bytes of 0x80 and more), each line numbered by its value, read whole and streamed.
@Suite("evemu runs: the end of a comment of any length")
struct EvemuRunCommentTests {
    static let commentBytes: [UInt8] = [UInt8(ascii: "a"), 0x09, 0x0b, 0x0c, 0x8a, 0xff, 0x7f, 0x80, 0x20, 0x23, 0x0d]

    /// Lines `E: <n>.000000 0003 0035 <n>\t# <n bytes>`, some followed by an empty line, and their events.
    static func text() -> (bytes: [UInt8], events: [InputEvent]) {
        var bytes = Array("# EVEMU 1.3\n".utf8)
        var events: [InputEvent] = []
        for length in 0..<65 {
            bytes += Array("E: \(length).000000 0003 0035 \(length)\t#".utf8)
            // A `\r` may end a comment only as the byte the split drops, which the line does not keep either way.
            bytes += (0..<length).map { commentBytes[($0 * 7 + length) % commentBytes.count] }
            bytes += Array("\n".utf8)
            if length % 3 == 0 { bytes += Array("\n".utf8) }
            events.append(
                InputEvent(
                    time: EventTime(microseconds: Int64(length) * 1_000_000), type: EventType.abs, code: 0x35,
                    value: Int32(length)))
        }
        return (bytes, events)
    }

    @Test("every comment length, whole and streamed through buffers of several sizes")
    func commentsOfEveryLength() throws {
        let (bytes, expected) = Self.text()
        let whole = try EvemuReader.parse(bytes, file: "f")
        #expect(whole.events == expected)
        #expect(whole.skipped.isEmpty)
        for bufferSize in [40, 64, 97, 4096] {
            let stream = try RecordingStream(
                input: RecordingInput(bytes: bytes, name: "f"), format: .evemu, bufferSize: bufferSize, batchSize: 7)
            var events: [InputEvent] = []
            try stream.forEachBatch { events += $0 }
            #expect(events == expected, "buffer \(bufferSize)")
        }
        // The last line without its `\n`: the text ends in its comment.
        let cut = Array(bytes.dropLast(2))
        let lastLine = try EvemuReader.parse(cut, file: "f")
        #expect(lastLine.events == expected)
    }
}
