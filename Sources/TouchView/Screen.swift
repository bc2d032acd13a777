/// A terminal's worth of character cells: what `ViewRenderer` draws and `ANSIEncoder` turns into bytes.
public struct Screen: Equatable, Sendable {
    /// A cell's colour: a region's palette slot, or the neutral colour of fingers that hit no region.
    public enum Colour: Equatable, Hashable, Sendable {
        case region(Int)
        case neutral
    }

    public struct Style: Equatable, Hashable, Sendable {
        public var colour: Colour?
        public var bold = false
        public var reverse = false

        public init(colour: Colour? = nil, bold: Bool = false, reverse: Bool = false) {
            self.colour = colour
            self.bold = bold
            self.reverse = reverse
        }

        public static let plain = Style()
    }

    /// One printable ASCII character (`put` replaces anything else), so that every cell is one column wide.
    public struct Cell: Equatable, Sendable {
        public var character: UInt8
        public var style: Style

        public static let blank = Cell(character: UInt8(ascii: " "), style: .plain)
    }

    public let rows: Int
    public let columns: Int
    public private(set) var cells: [Cell]

    public init(rows: Int, columns: Int) {
        self.rows = max(0, rows)
        self.columns = max(0, columns)
        cells = Array(repeating: .blank, count: self.rows * self.columns)
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * columns + column]
    }

    /// Writes one character; outside the screen it is dropped. Control characters, DEL and anything beyond ASCII
    /// become `?`: text from the daemon (a region id) must not move the cursor or be wider than its cell.
    public mutating func put(_ character: UInt8, row: Int, column: Int, style: Style = .plain) {
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { return }
        let safe = (0x20..<0x7f).contains(character) ? character : UInt8(ascii: "?")
        cells[row * columns + column] = Cell(character: safe, style: style)
    }

    /// Writes text from `column` on, one cell per Unicode scalar, cut at `limit` (exclusive) or the right edge.
    public mutating func write(_ text: String, row: Int, column: Int, limit: Int? = nil, style: Style = .plain) {
        let end = min(limit ?? columns, columns)
        var position = column
        for scalar in text.unicodeScalars {
            guard position < end else { break }
            put(scalar.isASCII ? UInt8(scalar.value) : UInt8(ascii: "?"), row: row, column: position, style: style)
            position += 1
        }
    }

    /// The characters of one row, for tests and for the plain encoder.
    public func text(row: Int) -> String {
        String(decoding: (0..<columns).map { self[row, $0].character }, as: UTF8.self)
    }
}
