import TouchEngine
import TouchPosix
import TouchWire

/// One connected client: its socket, who it is, what it may do, what it subscribed to, its partial input line,
/// the requests read but not yet answered, and its bounded output queue. Never blocks: reads and writes are
/// non-blocking; while the queue is over its high-water mark the client's requests wait (backpressure), and a
/// queue of events still over the limit after coalescing ends in disconnection (`OutboundQueue`).
public final class ClientConnection {
    public let id: Int
    public let fd: Int32
    public let credentials: PeerCredentials
    public let permissions: Permissions
    public var subscription: Subscription?
    public var loopToken: UInt64 = 0
    /// What the loop watches for: readable unless requests wait or input ended, writable while the queue holds
    /// bytes.
    public var interest: Readiness = .readable
    public private(set) var framer: LineFramer
    public private(set) var queue: OutboundQueue
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Requests read from the socket and not yet handled (they wait while the client does not read its replies).
    public private(set) var pendingItems: [LineFramer.Item] = []
    private var pendingHead = 0
    /// The client sent end-of-file: handle what it sent, deliver the replies, then close.
    public var inputClosed = false
    /// Monotonic µs of the connect, of the last time the queue was seen draining, and whether the client has
    /// subscribed or sent a request (a connection that never does is closed as idle).
    public var connectedAt: Int64 = 0
    public var lastDrained: Int64 = 0
    public var hasBeenActive = false

    public init(
        id: Int, fd: Int32, credentials: PeerCredentials, permissions: Permissions, maximumLineBytes: Int,
        queueBytes: Int
    ) {
        self.id = id
        self.fd = fd
        self.credentials = credentials
        self.permissions = permissions
        framer = LineFramer(maximumLineLength: maximumLineBytes)
        queue = OutboundQueue(limitBytes: queueBytes)
    }

    public enum ReadOutcome: Equatable {
        case items([LineFramer.Item])
        case closed
    }

    /// Whether requests wait: the replies queued are over the high-water mark.
    public var isBackpressured: Bool { queue.isOverHighWater }

    public var hasPendingItems: Bool { pendingHead < pendingItems.count }

    /// Replies wait for the client to read them while its requests wait too: a client that stays so for the whole
    /// idle timeout does not read, and is closed.
    public var isStalled: Bool { !queue.isEmpty && (isBackpressured || hasPendingItems) }

    /// The next request to handle, nil when none waits.
    public func nextPendingItem() -> LineFramer.Item? {
        guard pendingHead < pendingItems.count else { return nil }
        let item = pendingItems[pendingHead]
        pendingHead += 1
        if pendingHead == pendingItems.count {
            pendingItems.removeAll(keepingCapacity: true)
            pendingHead = 0
        }
        return item
    }

    /// Reads what is available into the pending requests; `.closed` when the peer sent end-of-file or failed.
    public func readPending() -> ReadOutcome {
        switch read() {
        case .closed: return .closed
        case .items(let items):
            pendingItems.append(contentsOf: items)
            return .items([])
        }
    }

    /// Reads what is available (up to 1 MiB a call, so one chatty client cannot starve the loop).
    public func read() -> ReadOutcome {
        var items: [LineFramer.Item] = []
        var total = 0
        while total < 1 << 20 {
            do {
                switch try Posix.read(fd, into: &readBuffer, count: readBuffer.count) {
                case .bytes(let count):
                    framer.append(readBuffer[0..<count], into: &items)
                    total += count
                case .wouldBlock:
                    return .items(items)
                case .endOfFile:
                    return items.isEmpty ? .closed : .items(items)
                }
            } catch {
                return .closed
            }
        }
        return .items(items)
    }

    public func enqueue(_ bytes: [UInt8], kind: OutboundQueue.Kind) -> OutboundQueue.Outcome {
        queue.enqueue(bytes, kind: kind)
    }

    /// Writes what the socket takes. Returns false when the peer is gone.
    public func flush() -> Bool {
        var alive = true
        queue.flush { raw in
            guard alive else { return 0 }
            do {
                switch try Posix.write(fd, raw) {
                case .bytes(let count): return count
                case .wouldBlock, .endOfFile: return 0
                }
            } catch {
                alive = false
                return 0
            }
        }
        return alive
    }

    /// Set by `close()`: a fan-out that started before the disconnect skips this client.
    public private(set) var isClosed = false

    public func close() {
        isClosed = true
        Posix.close(fd)
    }
}
