import CEvdev
import TouchCore
import TouchPosix

/// A device's read buffer: one read(2) a wake-up, of whole `input_event`s (evdev never gives part of one).
///
/// A read that fills the buffer leaves the rest for the next wake-up: epoll is level-triggered, so the loop wakes
/// again at once, and other descriptors are served in between. Reading on until EAGAIN would cost every frame a
/// second read (libevdev's way: four system calls a frame instead of three).
public final class EventReadBuffer {
    /// 512 events, 12 KiB: a frame of ten fingers is about 60 events; the kernel's per-client buffer, which a
    /// drop empties, is at most a few thousand.
    public static let defaultCapacity = 512

    public enum Outcome: Equatable, Sendable {
        /// Nothing was pending (EAGAIN).
        case nothing
        /// Events were appended; `filled`: the read filled the buffer, so more may be pending.
        case events(filled: Bool)
        /// The kernel dropped events: the events appended end with the `SYN_DROPPED`, and those after it in the
        /// read were discarded, being older than the state the caller is now to ask for.
        case dropped
    }

    private let storage: UnsafeMutableBufferPointer<input_event>

    public init(capacity: Int = EventReadBuffer.defaultCapacity) {
        storage = .allocate(capacity: max(1, capacity))
    }

    deinit { storage.deallocate() }

    /// One read of `fd`, its events appended to `events` up to and including a `SYN_DROPPED`.
    public func read(_ fd: Int32, node: String, into events: inout [InputEvent]) throws(DeviceReadError) -> Outcome {
        let count: Int
        switch try readOnce(fd, node: node) {
        case nil: return .nothing
        case let got?: count = got
        }
        let read = UnsafeBufferPointer(rebasing: storage[..<count])
        if Self.append(read, to: &events) { return .dropped }
        return .events(filled: count == storage.count)
    }

    /// Reads and discards what is pending, as libevdev does before it asks for the state after a drop: those
    /// events are older than that state. At most eight buffers, libevdev's bound too, so a device that never stops
    /// sending cannot hold the loop.
    public func drain(_ fd: Int32, node: String) throws(DeviceReadError) {
        for _ in 0..<8 {
            guard let count = try readOnce(fd, node: node), count == storage.count else { return }
        }
    }

    /// Converts `raw` onto `events` up to and including the first `SYN_DROPPED`; true when it met one.
    public static func append(_ raw: UnsafeBufferPointer<input_event>, to events: inout [InputEvent]) -> Bool {
        for event in raw {
            events.append(convert(event))
            if event.type == EventType.syn && event.code == SynCode.dropped { return true }
        }
        return false
    }

    static func convert(_ event: input_event) -> InputEvent {
        InputEvent(
            time: EventTime(seconds: Int64(event.time.tv_sec), microseconds: Int64(event.time.tv_usec)),
            type: event.type, code: event.code, value: event.value)
    }

    /// The number of events read, or nil for none pending.
    private func readOnce(_ fd: Int32, node: String) throws(DeviceReadError) -> Int? {
        let result: Posix.IOResult
        do {
            result = try Posix.read(fd, into: UnsafeMutableRawBufferPointer(storage))
        } catch {
            throw DeviceReadError(call: "read", errno: error.errno, node: node)
        }
        switch result {
        case .wouldBlock: return nil
        case .endOfFile: throw .gone(node: node)
        case .bytes(let bytes):
            let size = MemoryLayout<input_event>.stride
            guard bytes % size == 0 else { throw .partialEvent(node: node, bytes: bytes) }
            return bytes / size
        }
    }
}
