import TouchEngine
import TouchJSON

/// One client's connection as the adapter sees it through the kernel: the send buffer the engine's bytes go into,
/// with a capacity so that a test can play a client that reads slowly or not at all, and the bytes the client sent
/// that the adapter has not read yet. A test double of the socket, not of the engine.
final class FakeSocket {
    let id: ClientID
    /// How many more bytes the socket takes before it is full; nil: a client that reads everything at once.
    var capacity: Int?
    /// Every write fails (EPIPE, ECONNRESET): the adapter's writer returns `.failed`.
    var failsWrites = false
    /// What the client sent that the adapter has not read yet (it reads only while the engine wants input).
    var inbound: [UInt8] = []
    /// The client shut down its sending side after `inbound` (end-of-file once that is read).
    var inboundEnded = false
    var endOfFileRead = false
    /// Everything the client has received, in order.
    private(set) var received: [UInt8] = []
    /// The byte count offered by each write call, in order: one entry per system call the adapter would make.
    private(set) var writes: [Int] = []
    /// What the engine last asked the socket to be watched for; the adapter registers a new client for readable.
    private(set) var interest: Interest = .readable
    private(set) var watches: [Interest] = []
    /// The engine closed the connection, handing over these last bytes (nil while open).
    private(set) var finalBytes: [UInt8]?
    private var linesTaken = 0

    init(id: ClientID, capacity: Int?) {
        self.id = id
        self.capacity = capacity
    }

    var isClosed: Bool { finalBytes != nil }

    /// The adapter's writer: the socket takes what fits.
    func write(_ raw: UnsafeRawBufferPointer) -> WriteResult {
        writes.append(raw.count)
        if failsWrites { return .failed }
        let taken = min(raw.count, capacity ?? raw.count)
        received += raw.prefix(taken)
        if let capacity { self.capacity = capacity - taken }
        return .wrote(taken)
    }

    func watch(_ interest: Interest) {
        self.interest = interest
        watches.append(interest)
    }

    /// The daemon writes the last bytes if the socket takes them, without waiting, then closes.
    func close(after bytes: [UInt8]) {
        finalBytes = bytes
        let taken = min(bytes.count, capacity ?? bytes.count)
        received += bytes.prefix(taken)
    }

    /// Whether the adapter's event loop would call the client's handler now.
    var isReady: Bool {
        guard !isClosed else { return false }
        let readable = !inbound.isEmpty || (inboundEnded && !endOfFileRead)
        let writable = capacity.map { $0 > 0 } ?? true
        return (interest.contains(.readable) && readable) || (interest.contains(.writable) && writable)
    }

    /// Every whole line received so far.
    var lines: [WireLine] { WireLine.split(received) }

    /// The lines received since the last call: what a test asserts on after each step.
    func take() -> [WireLine] {
        let all = lines
        defer { linesTaken = all.count }
        return Array(all[linesTaken...])
    }

    /// The lines of `finalBytes` (the goodbye and whatever was queued before it).
    var finalLines: [WireLine] { WireLine.split(finalBytes ?? []) }
}
