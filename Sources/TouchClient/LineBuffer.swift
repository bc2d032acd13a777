import TouchWire

/// The lines read from touchd, with a bound on how long one may be, so that whatever listens on the socket cannot
/// make the client buffer without end: a line that has grown past `maximumLineBytes` without its newline is an
/// error as soon as the lines before it are taken, not when (if ever) its newline comes.
struct LineBuffer {
    let maximumLineBytes: Int
    private var framer: LineFramer
    private var items: [LineFramer.Item] = []
    /// Bytes since the last newline: how long the line being read is so far.
    private var unterminated = 0

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
        framer = LineFramer(maximumLineLength: maximumLineBytes)
    }

    /// Whether `next()` has a line (or the error of an over-long one) without another read.
    var hasNext: Bool { !items.isEmpty || unterminated > maximumLineBytes }

    /// Adds bytes read from the socket. The framer keeps at most `maximumLineBytes` of an unfinished line.
    mutating func append(_ bytes: ArraySlice<UInt8>) {
        framer.append(bytes, into: &items)
        if let newline = bytes.lastIndex(of: UInt8(ascii: "\n")) {
            unterminated = bytes.endIndex - newline - 1
        } else {
            unterminated += bytes.count
        }
    }

    /// The next whole line; nil when more bytes are needed. Throws for a line over the bound.
    mutating func next() throws(ClientError) -> [UInt8]? {
        if !items.isEmpty {
            switch items.removeFirst() {
            case .line(let line): return line
            case .oversized(let length): throw Self.tooLong("of \(length) bytes", maximumLineBytes)
            }
        }
        if unterminated > maximumLineBytes {
            throw Self.tooLong("of more than \(maximumLineBytes) bytes", maximumLineBytes)
        }
        return nil
    }

    private static func tooLong(_ length: String, _ maximum: Int) -> ClientError {
        .protocolError("a line from touchd \(length), more than the client takes (\(maximum))")
    }
}
