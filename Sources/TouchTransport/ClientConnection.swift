import TouchPosix

/// One connected client: its socket, who it is, what it may do, what it subscribed to, its partial input line
/// and its bounded output queue. Never blocks: reads and writes are non-blocking, and a full queue ends in
/// coalescing, then disconnection (`OutboundQueue`).
public final class ClientConnection {
    public let id: Int
    public let fd: Int32
    public let credentials: PeerCredentials
    public let permissions: Permissions
    public var subscription: Subscription?
    public var loopToken: UInt64 = 0
    /// Whether the loop is asked for writability (the queue is not empty).
    public var watchingWrites = false
    public private(set) var framer: LineFramer
    public private(set) var queue: OutboundQueue
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

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
