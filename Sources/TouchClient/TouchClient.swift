import TouchJSON
import TouchPosix
import TouchWire

/// A client of touchd's socket protocol (docs/protocol.md): connect, read the hello, subscribe, read typed
/// messages, change the scene. Blocking and single-threaded: a client program owns its thread.
public final class TouchClient {
    public let path: String
    public let hello: Message.Hello
    private let fd: Int32
    private var lines: LineBuffer
    private var nextID = 1
    /// How long `request` waits for its reply, and a send for the daemon to take it, before it gives up with
    /// `ClientError.noReply` (nil: for ever).
    public var replyTimeoutMilliseconds: Int?

    /// How to retry a connection (the daemon restarting, or not yet up).
    public struct RetryPolicy: Sendable {
        public var attempts: Int
        public var initialDelayMilliseconds: Int
        public var maximumDelayMilliseconds: Int

        public init(attempts: Int = 20, initialDelayMilliseconds: Int = 50, maximumDelayMilliseconds: Int = 1000) {
            self.attempts = attempts
            self.initialDelayMilliseconds = initialDelayMilliseconds
            self.maximumDelayMilliseconds = maximumDelayMilliseconds
        }

        public static let none = RetryPolicy(attempts: 1)
    }

    public static let defaultSocketPath = "/run/touchd/touchd.sock"

    /// The longest line the client takes from touchd: a reply can hold a whole scene, and touchd takes requests
    /// (a `set-scene`) of up to 64 MiB (`clients.maxLineBytes`' ceiling). A longer line, or one that never ends,
    /// is a `ClientError.protocolError` instead of memory without bound.
    public static let defaultMaximumLineBytes = 64 << 20

    /// The socket is not there yet, nobody listens, or the backlog is full: the daemon is (re)starting or busy.
    static let retriedConnectErrors = [
        Errno.noSuchFileOrDirectory, Errno.connectionRefused, Errno.resourceTemporarilyUnavailable,
    ]

    /// Connects and reads the hello; retries per `retry` while the socket is missing, refuses, or its backlog is
    /// full. `timeoutMilliseconds` bounds the wait for the hello, for each reply and for each send (nil: no bound).
    /// `maximumLineBytes`: the longest line taken from touchd (at least 1).
    public init(
        path: String = TouchClient.defaultSocketPath, retry: RetryPolicy = .none, timeoutMilliseconds: Int? = 10_000,
        maximumLineBytes: Int = TouchClient.defaultMaximumLineBytes
    ) throws(ClientError) {
        self.path = path
        lines = LineBuffer(maximumLineBytes: max(1, maximumLineBytes))
        replyTimeoutMilliseconds = timeoutMilliseconds
        var delay = retry.initialDelayMilliseconds
        var attempt = 0
        var descriptor: Int32 = -1
        while true {
            attempt += 1
            // Not blocking in connect: a daemon that is stopped with a full backlog answers EAGAIN, retried below.
            do {
                descriptor = try Posix.connect(unixSocket: path)
                break
            } catch {
                guard attempt < retry.attempts, Self.retriedConnectErrors.contains(error.errno) else {
                    throw ClientError.connection(error)
                }
            }
            Posix.sleep(microseconds: Int64(delay) * 1000)
            delay = min(delay * 2, retry.maximumDelayMilliseconds)
        }
        fd = descriptor
        try? Posix.setBlocking(fd)
        if let timeoutMilliseconds {
            // A send that the daemon does not take within the timeout fails (EAGAIN) instead of blocking for ever.
            try? Posix.setSendTimeout(fd, milliseconds: timeoutMilliseconds)
        }
        var first: Message?
        do {
            first = try Self.readMessage(
                fd: fd, lines: &lines, deadline: timeoutMilliseconds.map { Self.monotonicMilliseconds() + $0 })
        } catch .noReply {
            Posix.close(fd)
            throw ClientError.noReply(op: "hello", milliseconds: timeoutMilliseconds ?? 0)
        } catch {
            Posix.close(fd)
            throw error
        }
        switch first {
        case .hello(let hello)?:
            self.hello = hello
        case .goodbye(let code, let message)?:
            Posix.close(fd)
            throw ClientError.refused(code: code, message: message)
        default:
            Posix.close(fd)
            throw ClientError.protocolError("expected a hello first")
        }
    }

    deinit { Posix.close(fd) }

    /// Sends a request (a JSON object without `id`) and returns the id it was given.
    @discardableResult
    public func send(op: String, _ fields: (inout JSONWriter) -> Void = { _ in }) throws(ClientError) -> Int {
        let id = nextID
        nextID += 1
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("op", op)
        writer.field("id", id)
        fields(&writer)
        writer.endObject()
        writer.newline()
        try write(writer.bytes)
        return id
    }

    /// Sends a request and reads until its reply; other messages that arrive meanwhile are kept for `next()`.
    public func request(op: String, _ fields: (inout JSONWriter) -> Void = { _ in }) throws(ClientError)
        -> Message.Reply
    {
        let id = try send(op: op, fields)
        var held: [Message] = []
        defer { backlog.insert(contentsOf: held, at: 0) }
        let deadline = replyTimeoutMilliseconds.map { Self.monotonicMilliseconds() + $0 }
        while true {
            let next: Message?
            do {
                next = try Self.readMessage(fd: fd, lines: &lines, deadline: deadline)
            } catch .noReply {
                throw ClientError.noReply(op: op, milliseconds: replyTimeoutMilliseconds ?? 0)
            }
            guard let message = next else { throw ClientError.closed }
            if case .reply(let reply) = message, reply.id == id { return reply }
            if case .goodbye(let code, let text) = message { throw ClientError.refused(code: code, message: text) }
            held.append(message)
        }
    }

    static func monotonicMilliseconds() -> Int { Int(MonotonicClock.nowMicroseconds() / 1000) }

    public func ping() throws(ClientError) -> Bool { try request(op: "ping").ok }

    /// Subscribes; empty lists mean everything.
    /// `fields`: the keys wanted in touch and gesture lines beyond their core (docs/protocol.md); nil for whole
    /// lines, empty for the core alone.
    public func subscribe(
        events: [String] = [], regions: [String] = [], devices: [String] = [], fields: [String]? = nil
    ) throws(ClientError) -> Message.Reply {
        try request(op: "subscribe") { writer in
            if !events.isEmpty { Self.strings("events", events, into: &writer) }
            if !regions.isEmpty { Self.strings("regions", regions, into: &writer) }
            if !devices.isEmpty { Self.strings("devices", devices, into: &writer) }
            if let fields { Self.strings("fields", fields, into: &writer) }
        }
    }

    /// Replaces the scene with the JSON text of a scene file (any layout: it is sent as one compact line).
    public func setScene(json: [UInt8]) throws(ClientError) -> Message.Reply {
        let scene = try Self.compact(json)
        return try request(op: "set-scene") { $0.rawField("scene", scene) }
    }

    /// JSON text as one line, for a newline-delimited request; a syntax error is the caller's to report.
    public static func compact(_ json: [UInt8]) throws(ClientError) -> [UInt8] {
        do {
            return try JSONParser.parse(json).compactJSON
        } catch {
            throw ClientError.invalidJSON(error)
        }
    }

    private var backlog: [Message] = []
    /// `receiveAvailable`'s buffer, kept: it is called for every batch of events.
    private var readBuffer: [UInt8] = []

    /// The next message (blocking); nil when the daemon closed the connection.
    public func next() throws(ClientError) -> Message? {
        if !backlog.isEmpty { return backlog.removeFirst() }
        return try nextFromSocket()
    }

    private func nextFromSocket() throws(ClientError) -> Message? {
        try Self.readMessage(fd: fd, lines: &lines)
    }

    /// The socket, for a program that runs its own event loop: when it is readable, call `receiveAvailable()`.
    public var fileDescriptor: Int32 { fd }

    /// Messages already read and not yet returned (held back by `request`, or read with its reply): returned
    /// without touching the socket. A program with its own loop takes these after each `request`, since the loop
    /// will not see the socket readable for bytes already read.
    public func takeBuffered() throws(ClientError) -> [Message] {
        var messages = backlog
        backlog.removeAll()
        while let line = try lines.next() {
            messages.append(try Self.decode(line))
        }
        return messages
    }

    /// One read of what the socket holds (call it when the socket is readable: it does not wait then), and the
    /// messages that completes; nil when touchd has closed the connection and nothing is left.
    public func receiveAvailable() throws(ClientError) -> [Message]? {
        let result: Posix.IOResult
        do {
            result = try Posix.read(fd, into: &readBuffer, count: 65536)
        } catch {
            throw ClientError.connection(error)
        }
        switch result {
        case .bytes(let count):
            lines.append(readBuffer[0..<count])
            return try takeBuffered()
        case .wouldBlock:
            return try takeBuffered()
        case .endOfFile:
            let left = try takeBuffered()
            return left.isEmpty ? nil : left
        }
    }

    /// The next raw line, for `touchctl monitor --raw`.
    public func nextLine() throws(ClientError) -> [UInt8]? {
        try Self.readLine(fd: fd, lines: &lines)
    }

    private func write(_ bytes: [UInt8]) throws(ClientError) {
        do {
            try Posix.sendAll(fd, bytes)
        } catch {
            if error.isWouldBlock { throw ClientError.noReply(op: "send", milliseconds: replyTimeoutMilliseconds ?? 0) }
            throw ClientError.connection(SystemError(error.call, errno: error.errno, subject: path))
        }
    }

    static func readMessage(fd: Int32, lines: inout LineBuffer, deadline: Int? = nil) throws(ClientError) -> Message? {
        guard let line = try readLine(fd: fd, lines: &lines, deadline: deadline) else { return nil }
        return try decode(line)
    }

    static func decode(_ line: [UInt8]) throws(ClientError) -> Message {
        do {
            return try Message.decode(JSONParser.parse(line))
        } catch {
            throw ClientError.protocolError("unreadable line from touchd: \(error)")
        }
    }

    /// The next line; waits at most until `deadline` (monotonic ms) when one is given.
    static func readLine(fd: Int32, lines: inout LineBuffer, deadline: Int? = nil) throws(ClientError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !lines.hasNext {
            if let deadline {
                let remaining = deadline - monotonicMilliseconds()
                var ready = false
                if remaining > 0 {
                    do {
                        ready = try Posix.waitUntilReadable(fd, timeoutMilliseconds: remaining)
                    } catch {
                        throw ClientError.connection(error)
                    }
                }
                guard ready else { throw ClientError.noReply(op: "", milliseconds: 0) }
            }
            let result: Posix.IOResult
            do {
                result = try Posix.read(fd, into: &buffer, count: buffer.count)
            } catch {
                throw ClientError.connection(error)
            }
            switch result {
            case .bytes(let count): lines.append(buffer[0..<count])
            case .endOfFile: return nil
            // The socket is blocking: only a receive timeout, which the client never sets, would end a read so.
            case .wouldBlock:
                throw ClientError.connection(SystemError("read", errno: Errno.resourceTemporarilyUnavailable))
            }
        }
        return try lines.next()
    }

    private static func strings(_ key: StaticString, _ values: [String], into writer: inout JSONWriter) {
        writer.beginArray(key)
        for value in values { writer.element(value) }
        writer.endArray()
    }
}

public enum ClientError: Error, CustomStringConvertible {
    case connection(SystemError)
    case refused(code: String, message: String)
    case protocolError(String)
    case closed
    /// No reply to request `op` within the timeout.
    case noReply(op: String, milliseconds: Int)
    /// What the caller asked to send is not JSON.
    case invalidJSON(JSONSyntaxError)

    public var description: String {
        switch self {
        case .connection(let error): "\(error)"
        case .refused(let code, let message): "touchd refused: \(code): \(message)"
        case .protocolError(let message): message
        case .closed: "touchd closed the connection"
        case .noReply("hello", let milliseconds): "touchd did not say hello within \(milliseconds) ms"
        case .noReply("send", let milliseconds): "touchd did not take the request within \(milliseconds) ms"
        case .noReply(let op, let milliseconds): "touchd did not answer '\(op)' within \(milliseconds) ms"
        case .invalidJSON(let error): "not valid JSON: \(error)"
        }
    }
}
