import CEvdev
import CShims
import Testing
import TouchCore
import TouchDevice
import TouchFormats
import TouchPosix
import TouchRecordingFiles
import TouchTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A real recording's events written as the kernel's `struct input_event`s into a pipe and read back through
/// `EventReadBuffer` with the read(2) the daemon makes, in buffers smaller than the stream.
@Suite(
    "Reading whole input events, one read a wake-up",
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct EventReadBufferTests {
    /// n4.events: a Nexus 4, 4,953 events in 577 frames, 12 touches (docs/performance.md row 4).
    static func nexus4() throws -> Recording {
        try RecordingLoader.load(path: SharedRecordings.path("xorg-integration-tests/touchscreens/n4.events"))
    }

    final class Pipe {
        let reader: Int32
        let writer: Int32
        init() throws {
            var fds: [Int32] = [-1, -1]
            guard touchd_pipe_nonblocking(&fds) == 0 else { throw SystemError("pipe2") }
            reader = fds[0]
            writer = fds[1]
        }
        deinit {
            Posix.close(reader)
            if writer >= 0 { Posix.close(writer) }
        }
        /// Writes the events as `input_event`s in one write; returns how many the pipe took.
        func write(_ events: ArraySlice<InputEvent>) -> Int {
            var raw = events.map { event in
                var record = input_event()
                record.time.tv_sec = Int(event.time.microseconds / 1_000_000)
                record.time.tv_usec = Int(event.time.microseconds % 1_000_000)
                record.type = event.type
                record.code = event.code
                record.value = event.value
                return record
            }
            let size = MemoryLayout<input_event>.stride
            let written = raw.withUnsafeMutableBytes { Glibc.write(writer, $0.baseAddress, $0.count) }
            return written < 0 ? 0 : written / size
        }
    }

    /// The whole recording through a pipe, 170 events at a time, read 100 at most (no multiple of a frame): the
    /// events come out as they went in, each whole chunk's first read says it filled the buffer, and the decoder
    /// finds the recording's 12 touches.
    @Test("a stream read in partial buffers decodes as the recording")
    func partialBuffers() throws {
        let recording = try Self.nexus4()
        let pipe = try Pipe()
        let buffer = EventReadBuffer(capacity: 100)
        var read: [InputEvent] = []
        var filledReads = 0
        // 170 events, 4,080 bytes: within PIPE_BUF, so each write is whole, as the kernel's events are.
        for start in stride(from: 0, to: recording.events.count, by: 170) {
            let chunk = recording.events[start..<min(start + 170, recording.events.count)]
            #expect(pipe.write(chunk) == chunk.count)
            reading: while true {
                switch try buffer.read(pipe.reader, node: "pipe", into: &read) {
                case .events(let filled): if filled { filledReads += 1 }
                case .nothing: break reading
                case .dropped: Issue.record("no SYN_DROPPED was written")
                }
            }
        }
        #expect(read == recording.events)
        #expect(filledReads == recording.events.count / 170)
        #expect(try buffer.read(pipe.reader, node: "pipe", into: &read) == .nothing)
        var reread = recording
        reread.events = read
        #expect(DecodedRecording(reread).fingers == 12)
    }

    /// A SYN_DROPPED after the 1,000th event, and 200 more events queued behind it: the read gives the events
    /// up to and including the drop; the drain discards what followed (older than the state asked for next); what
    /// the device sends after that reads as usual.
    @Test("a SYN_DROPPED mid-buffer ends the read; the rest is drained; later events read on")
    func dropMidBuffer() throws {
        let events = try Self.nexus4().events
        let drop = InputEvent(time: events[999].time, type: EventType.syn, code: SynCode.dropped, value: 0)
        let queued = Array(events[..<1000]) + [drop] + Array(events[1000..<1200])
        let pipe = try Pipe()
        #expect(pipe.write(queued[...]) == queued.count)
        let buffer = EventReadBuffer(capacity: 64)
        var read: [InputEvent] = []
        var outcome = EventReadBuffer.Outcome.nothing
        while outcome != .dropped {
            outcome = try buffer.read(pipe.reader, node: "pipe", into: &read)
            #expect(outcome != .nothing)
            if outcome == .nothing { break }
        }
        #expect(read == Array(queued[...1000]))
        try buffer.drain(pipe.reader, node: "pipe")
        #expect(try buffer.read(pipe.reader, node: "pipe", into: &read) == .nothing)
        read.removeAll()
        #expect(pipe.write(events[1200..<1300]) == 100)
        #expect(try buffer.read(pipe.reader, node: "pipe", into: &read) == .events(filled: true))
        #expect(try buffer.read(pipe.reader, node: "pipe", into: &read) == .events(filled: false))
        #expect(read == Array(events[1200..<1300]))
    }

    @Test("a read that ends inside an event, and the end of the stream, are typed errors")
    func partialAndEnd() throws {
        let pipe = try Pipe()
        let bytes: [UInt8] = Array(repeating: 1, count: 30)
        _ = bytes.withUnsafeBytes { Glibc.write(pipe.writer, $0.baseAddress, $0.count) }
        let buffer = EventReadBuffer()
        var read: [InputEvent] = []
        #expect(throws: DeviceReadError.partialEvent(node: "pipe", bytes: 30)) {
            try buffer.read(pipe.reader, node: "pipe", into: &read)
        }
        Posix.close(pipe.writer)
        #expect(throws: DeviceReadError.gone(node: "pipe")) { try buffer.read(pipe.reader, node: "pipe", into: &read) }
    }

    @Test("errno becomes the error's case, the node and call kept")
    func errnoCases() {
        let node = "/dev/input/event3"
        #expect(DeviceReadError(call: "read", errno: ENODEV, node: node) == .gone(node: node))
        #expect(DeviceReadError(call: "read", errno: EIO, node: node) == .inputOutput(node: node))
        let other = DeviceReadError(call: "EVIOCGMTSLOTS", errno: EINVAL, node: node)
        #expect(other == .failed(call: "EVIOCGMTSLOTS", errno: EINVAL, node: node))
        #expect(other.description == "/dev/input/event3: EVIOCGMTSLOTS failed: Invalid argument")
    }
}
