import TouchCore

/// Byte-level helpers for the text readers: no Foundation strings on the per-event path.
enum ASCII {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let hash = UInt8(ascii: "#")
    static let colon = UInt8(ascii: ":")
    static let dot = UInt8(ascii: ".")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let zero = UInt8(ascii: "0")

    static func isSpace(_ byte: UInt8) -> Bool { byte == space || byte == tab }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= zero + 9 }
}

/// Calls `body` with each line (without its `\n` or trailing `\r`) and its 1-based number.
func forEachLine(
    in bytes: [UInt8], _ body: (_ line: ArraySlice<UInt8>, _ number: Int) throws(RecordingError) -> Void
) throws(RecordingError) {
    var start = 0
    var number = 1
    let count = bytes.count
    while start < count {
        // A word at a time, as the streaming reader (`LineReader`) looks for them.
        let end = bytes.withUnsafeBufferPointer { ByteSearch.first(ASCII.newline, in: $0, from: start, to: count) }
        var lineEnd = end
        if lineEnd > start && bytes[lineEnd - 1] == ASCII.carriageReturn { lineEnd -= 1 }
        try body(bytes[start..<lineEnd], number)
        number += 1
        start = end + 1
    }
}

/// Splits a line into whitespace-separated fields, stopping at a `#` comment when asked.
struct FieldScanner {
    private let line: ArraySlice<UInt8>
    private var position: Int

    init(_ line: ArraySlice<UInt8>) {
        self.line = line
        position = line.startIndex
    }

    /// The next field, or nil at the end of the line (or at a `#` when `stopAtComment`).
    mutating func next(stopAtComment: Bool = true) -> ArraySlice<UInt8>? {
        while position < line.endIndex && ASCII.isSpace(line[position]) { position += 1 }
        guard position < line.endIndex else { return nil }
        if stopAtComment && line[position] == ASCII.hash { return nil }
        let start = position
        while position < line.endIndex && !ASCII.isSpace(line[position]) { position += 1 }
        return line[start..<position]
    }

    /// What is left of the line, with leading and trailing blanks removed.
    mutating func rest() -> ArraySlice<UInt8> {
        while position < line.endIndex && ASCII.isSpace(line[position]) { position += 1 }
        var end = line.endIndex
        while end > position && ASCII.isSpace(line[end - 1]) { end -= 1 }
        let result = line[position..<end]
        position = line.endIndex
        return result
    }
}

enum NumberParsing {
    /// Decimal with optional sign and any number of leading zeros (`0360` is 360, `-001` is -1).
    static func decimal(_ field: ArraySlice<UInt8>) -> Int64? {
        var index = field.startIndex
        var negative = false
        if index < field.endIndex && (field[index] == ASCII.minus || field[index] == ASCII.plus) {
            negative = field[index] == ASCII.minus
            index += 1
        }
        guard index < field.endIndex else { return nil }
        var value: Int64 = 0
        while index < field.endIndex {
            let byte = field[index]
            guard ASCII.isDigit(byte) else { return nil }
            let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.addingReportingOverflow(Int64(byte - ASCII.zero))
            guard !overflow1 && !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    static func int32(_ field: ArraySlice<UInt8>) -> Int32? {
        guard let value = decimal(field), let narrow = Int32(exactly: value) else { return nil }
        return narrow
    }

    /// Hexadecimal digits with an optional `0x` prefix.
    static func hex(_ field: ArraySlice<UInt8>) -> UInt64? {
        var index = field.startIndex
        if field.count > 2 && field[index] == ASCII.zero && (field[index + 1] | 0x20) == UInt8(ascii: "x") {
            index += 2
        }
        guard index < field.endIndex, field.endIndex - index <= 16 else { return nil }
        var value: UInt64 = 0
        while index < field.endIndex {
            let byte = field[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
            index += 1
        }
        return value
    }

    static func hex16(_ field: ArraySlice<UInt8>) -> UInt16? {
        guard let value = hex(field) else { return nil }
        return UInt16(exactly: value)
    }

    /// `sec.usec` to microseconds; up to six fractional digits are significant, more are truncated.
    static func timestamp(_ field: ArraySlice<UInt8>) -> EventTimeValue? {
        guard let dot = field.firstIndex(of: ASCII.dot) else {
            guard let seconds = decimal(field) else { return nil }
            let (micros, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
            return overflow ? nil : micros
        }
        // Negative `sec.usec` is refused, "-0.5" too: its seconds read as 0, and it must not become +0.5.
        guard field.first != ASCII.minus, let seconds = decimal(field[field.startIndex..<dot]), seconds >= 0 else {
            return nil
        }
        var micros: Int64 = 0
        var digits = 0
        var index = dot + 1
        guard index < field.endIndex else { return nil }
        while index < field.endIndex {
            let byte = field[index]
            guard ASCII.isDigit(byte) else { return nil }
            if digits < 6 {
                micros = micros * 10 + Int64(byte - ASCII.zero)
                digits += 1
            }
            index += 1
        }
        while digits < 6 {
            micros *= 10
            digits += 1
        }
        // Seconds beyond what 64-bit microseconds hold are a bad number, not a crash (the fuzz targets feed them).
        return EventTime.checked(seconds: seconds, microseconds: micros)?.microseconds
    }
}

typealias EventTimeValue = Int64

extension String {
    init(bytes: ArraySlice<UInt8>) { self = String(decoding: bytes, as: UTF8.self) }
}
