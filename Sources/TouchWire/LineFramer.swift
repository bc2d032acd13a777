/// Splits a byte stream into NDJSON lines, with a bound on line length so a peer cannot make touchd buffer
/// without limit: a line longer than `maximumLineLength` is reported once as `.oversized` and the rest of it is
/// discarded up to its newline.
public struct LineFramer {
    public enum Item: Equatable {
        case line([UInt8])
        /// A line went past the limit; its bytes were dropped.
        case oversized(length: Int)
    }

    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var discarding = false
    private var discardedLength = 0

    public init(maximumLineLength: Int) { self.maximumLineLength = maximumLineLength }

    /// Bytes held for an unfinished line.
    public var bufferedCount: Int { pending.count }

    public mutating func append(_ bytes: ArraySlice<UInt8>, into items: inout [Item]) {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? bytes.endIndex
            if discarding {
                discardedLength += end - start
            } else {
                pending.append(contentsOf: bytes[start..<end])
                if pending.count > maximumLineLength {
                    discarding = true
                    discardedLength = pending.count
                    pending.removeAll(keepingCapacity: true)
                }
            }
            guard let newline else { break }
            if discarding {
                items.append(.oversized(length: discardedLength))
                discarding = false
                discardedLength = 0
            } else {
                var line = pending
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                if !line.isEmpty { items.append(.line(line)) }
                pending.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
    }
}
