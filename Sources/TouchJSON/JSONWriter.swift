/// Builds one JSON object into a byte buffer, without Foundation and without intermediate strings, so the
/// per-event output path allocates nothing once the buffer has grown. Numbers are printed deterministically:
/// integers as they are, doubles with a fixed number of decimals and trailing zeros removed.
public struct JSONWriter {
    @usableFromInline var buffer: ByteBuffer
    /// A value (scalar or closed container) was just written inside a container, so the next key or element needs
    /// a comma. One flag is enough: opening a container or writing a key clears it, closing one sets it again
    /// unless that was the top level, where objects follow each other without commas (NDJSON).
    private var needsComma = false
    private var depth = 0

    public init(capacity: Int = 256) { buffer = ByteBuffer(capacity: capacity) }

    /// A copy of what has been written.
    public var bytes: [UInt8] { buffer.array }

    public var count: Int { buffer.count }

    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeBytes(body)
    }

    /// Appends bytes as they are (whole lines written elsewhere, when the writer holds a client's queue).
    public mutating func append(raw bytes: UnsafeRawBufferPointer) { buffer.append(contentsOf: bytes) }

    /// Drops the first `count` bytes, moving the rest to the front (a queue's written lines).
    public mutating func removeFirst(_ count: Int) { buffer.removeFirst(count) }

    public mutating func reset() {
        buffer.removeAll()
        needsComma = false
        depth = 0
    }

    public mutating func beginObject() {
        separator()
        buffer.append(UInt8(ascii: "{"))
        open()
    }

    public mutating func endObject() {
        buffer.append(UInt8(ascii: "}"))
        close()
    }

    public mutating func beginArray(_ key: StaticString) {
        self.key(key)
        buffer.append(UInt8(ascii: "["))
        open()
    }

    public mutating func beginArray() {
        separator()
        buffer.append(UInt8(ascii: "["))
        open()
    }

    public mutating func endArray() {
        buffer.append(UInt8(ascii: "]"))
        close()
    }

    public mutating func newline() { buffer.append(UInt8(ascii: "\n")) }

    /// A key known at compile time (every key touchd writes): copied as it is, nothing to escape.
    public mutating func key(_ name: StaticString) {
        let comma = needsComma
        name.withUTF8Buffer { buffer.appendKey($0, afterComma: comma) }
        needsComma = false
    }

    /// A key that comes from data (escaped as needed).
    public mutating func key(string name: String) {
        separator()
        appendString(name)
        buffer.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        stringValue(value)
    }

    public mutating func field(_ name: StaticString, _ value: InternedString) { field(name, value.string) }

    public mutating func field(_ name: StaticString, _ value: Int64) {
        key(name)
        appendInteger(value)
    }

    public mutating func field(_ name: StaticString, _ value: Int) { field(name, Int64(value)) }

    public mutating func field(_ name: StaticString, _ value: Int32) { field(name, Int64(value)) }

    public mutating func field(_ name: StaticString, _ value: UInt32) { field(name, Int64(value)) }

    public mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        appendLiteral(value ? "true" : "false")
    }

    /// A double with at most `decimals` fractional digits (rounded half away from zero).
    public mutating func field(_ name: StaticString, _ value: Double, decimals: Int = 2) {
        key(name)
        appendDouble(value, decimals: decimals)
    }

    public mutating func nullField(_ name: StaticString) {
        key(name)
        appendLiteral("null")
    }

    /// An array element.
    public mutating func element(_ value: String) {
        separator()
        stringValue(value)
    }

    public mutating func element(_ value: Int64) {
        separator()
        appendInteger(value)
    }

    public mutating func element(_ value: Double, decimals: Int = 2) {
        separator()
        appendDouble(value, decimals: decimals)
    }

    public mutating func element(_ value: Bool) {
        separator()
        appendLiteral(value ? "true" : "false")
    }

    public mutating func nullElement() {
        separator()
        appendLiteral("null")
    }

    /// Already-encoded JSON as an array element (or as the whole document).
    public mutating func rawElement(_ json: [UInt8]) {
        separator()
        buffer.append(contentsOf: json)
        markValue()
    }

    /// Already-encoded JSON under a key that comes from data.
    public mutating func rawField(string name: String, _ json: [UInt8]) {
        key(string: name)
        buffer.append(contentsOf: json)
        markValue()
    }

    /// Inserts already-encoded JSON as a value.
    public mutating func rawField(_ name: StaticString, _ json: [UInt8]) {
        key(name)
        buffer.append(contentsOf: json)
        markValue()
    }

    private mutating func stringValue(_ value: String) {
        appendString(value)
        markValue()
    }

    private mutating func separator() {
        if needsComma { buffer.append(UInt8(ascii: ",")) }
    }

    private mutating func markValue() { needsComma = depth > 0 }

    private mutating func open() {
        depth += 1
        needsComma = false
    }

    private mutating func close() {
        depth -= 1
        needsComma = depth > 0
    }

    private mutating func appendLiteral(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
        markValue()
    }

    private mutating func appendInteger(_ value: Int64) {
        Self.appendInteger(value, to: &buffer)
        markValue()
    }

    /// A double that reads back as the same double: an integer's digits when it is one (below 2^53), otherwise
    /// the shortest digits that round-trip (Swift's `description`), which JSON accepts as written (`4e-05`).
    /// A non-finite value, which JSON cannot hold, is written as null.
    public mutating func field(_ name: StaticString, exactly value: Double) {
        key(name)
        appendExact(value)
    }

    public mutating func element(exactly value: Double) {
        separator()
        appendExact(value)
    }

    private mutating func appendExact(_ value: Double) {
        if !value.isFinite {
            buffer.append(contentsOf: Array("null".utf8))
        } else if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            Self.appendInteger(Int64(value), to: &buffer)
        } else {
            buffer.append(contentsOf: Array(value.description.utf8))
        }
        markValue()
    }

    private mutating func appendDouble(_ value: Double, decimals: Int) {
        Self.appendDouble(value, decimals: decimals, to: &buffer)
        markValue()
    }

    private mutating func appendString(_ value: String) {
        var text = value
        // Fast path: nothing to escape (nearly every key and value), one copy of the UTF-8 bytes.
        let copied = text.withUTF8 { utf8 -> Bool in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            buffer.append(UInt8(ascii: "\""))
            buffer.append(contentsOf: utf8)
            buffer.append(UInt8(ascii: "\""))
            return true
        }
        if !copied { appendEscaped(value) }
    }

    private mutating func appendEscaped(_ value: String) {
        buffer.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "\\"))
            case UInt8(ascii: "\n"): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0xf)],
                ])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Digits built right to left in a stack buffer, then appended at once.
    static func appendInteger(_ value: Int64, to bytes: inout ByteBuffer) {
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { raw in
            var position = raw.count
            prependInteger(value.magnitude, negative: value < 0, into: raw, before: &position)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position...]))
        }
    }

    /// Writes the decimal digits of `magnitude`, and a minus sign if `negative`, right to left so that they end
    /// just before `position`; `position` is left at the first byte written.
    private static func prependInteger(
        _ magnitude: UInt64, negative: Bool, into raw: UnsafeMutableRawBufferPointer, before position: inout Int
    ) {
        var rest = magnitude
        repeat {
            position -= 1
            raw[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        if negative {
            position -= 1
            raw[position] = UInt8(ascii: "-")
        }
    }

    /// `appendDouble` with two decimals, the precision of every coordinate: the same digits without the general
    /// path's loops (a finite value, as the caller checked).
    static func appendHundredths(_ value: Double, to bytes: inout ByteBuffer) {
        let scaled = (value * 100).rounded(.toNearestOrAwayFromZero)
        guard abs(scaled) < 9.0e18 else {
            var text = String(value)
            text.withUTF8 { bytes.append(contentsOf: $0) }
            return
        }
        let fixed = Int64(scaled)
        let whole = fixed.magnitude / 100
        let fraction = fixed.magnitude % 100
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { raw in
            var position = raw.count
            if fraction != 0 {
                let tens = fraction / 10
                let units = fraction % 10
                if units != 0 {
                    position -= 1
                    raw[position] = UInt8(ascii: "0") + UInt8(units)
                }
                position -= 1
                raw[position] = UInt8(ascii: "0") + UInt8(tens)
                position -= 1
                raw[position] = UInt8(ascii: ".")
            }
            prependInteger(whole, negative: fixed < 0, into: raw, before: &position)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position...]))
        }
    }

    /// Fixed point with at most `decimals` digits, trailing zeros dropped: `12.5`, `-3`, `0.05`.
    static func appendDouble(_ value: Double, decimals: Int, to bytes: inout ByteBuffer) {
        guard value.isFinite else {
            let null: StaticString = "null"
            null.withUTF8Buffer { bytes.append(contentsOf: $0) }
            return
        }
        let places = max(0, min(decimals, 9))
        if places == 2 {
            appendHundredths(value, to: &bytes)
        } else {
            appendFixedPoint(value, places: places, to: &bytes)
        }
    }

    /// The general fixed-point path (any number of places; `appendHundredths` must print what this prints for 2).
    static func appendFixedPoint(_ value: Double, places: Int, to bytes: inout ByteBuffer) {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard abs(scaled) < 9.0e18 else {
            // Too large for fixed point in 64 bits: Swift's shortest form ("7e+103") is valid JSON.
            var text = String(value)
            text.withUTF8 { bytes.append(contentsOf: $0) }
            return
        }
        let fixed = Int64(scaled)
        let whole = fixed.magnitude / UInt64(scale)
        var fraction = fixed.magnitude % UInt64(scale)
        var width = places
        while width > 0 && fraction % 10 == 0 && fraction != 0 {
            fraction /= 10
            width -= 1
        }
        if fraction == 0 { width = 0 }
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { raw in
            var position = raw.count
            for _ in 0..<width {
                position -= 1
                raw[position] = UInt8(ascii: "0") + UInt8(fraction % 10)
                fraction /= 10
            }
            if width > 0 {
                position -= 1
                raw[position] = UInt8(ascii: ".")
            }
            prependInteger(whole, negative: fixed < 0, into: raw, before: &position)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position...]))
        }
    }
}
