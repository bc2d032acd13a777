/// Builds one JSON object into a byte buffer, without Foundation and without intermediate strings, so the
/// per-event output path allocates nothing once the buffer has grown. Numbers are printed deterministically:
/// integers as they are, doubles with a fixed number of decimals and trailing zeros removed.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma.removeAll(keepingCapacity: true)
    }

    public mutating func beginObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma.removeLast()
    }

    public mutating func beginArray(_ key: String) {
        self.key(key)
        markValue()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    public mutating func beginArray() {
        separator()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma.removeLast()
    }

    public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    public mutating func key(_ name: String) {
        separator()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
    }

    public mutating func field(_ name: String, _ value: String) {
        key(name)
        stringValue(value)
    }

    public mutating func field(_ name: String, _ value: Int64) {
        key(name)
        appendInteger(value)
    }

    public mutating func field(_ name: String, _ value: Int) { field(name, Int64(value)) }

    public mutating func field(_ name: String, _ value: Int32) { field(name, Int64(value)) }

    public mutating func field(_ name: String, _ value: UInt32) { field(name, Int64(value)) }

    public mutating func field(_ name: String, _ value: Bool) {
        key(name)
        appendLiteral(value ? "true" : "false")
    }

    /// A double with at most `decimals` fractional digits (rounded half away from zero).
    public mutating func field(_ name: String, _ value: Double, decimals: Int = 2) {
        key(name)
        appendDouble(value, decimals: decimals)
    }

    public mutating func nullField(_ name: String) {
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

    /// Inserts already-encoded JSON as a value.
    public mutating func rawField(_ name: String, _ json: [UInt8]) {
        key(name)
        bytes.append(contentsOf: json)
        markValue()
    }

    private mutating func stringValue(_ value: String) {
        appendString(value)
        markValue()
    }

    private mutating func separator() {
        if let last = needsComma.last, last { bytes.append(UInt8(ascii: ",")) }
        markValue()
    }

    private mutating func markValue() {
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
    }

    private mutating func appendLiteral(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        markValue()
    }

    private mutating func appendInteger(_ value: Int64) {
        Self.appendInteger(value, to: &bytes)
        markValue()
    }

    private mutating func appendDouble(_ value: Double, decimals: Int) {
        Self.appendDouble(value, decimals: decimals, to: &bytes)
        markValue()
    }

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0xf)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    public static func appendDouble(_ value: Double, decimals: Int, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            bytes.append(contentsOf: Array("null".utf8))
            return
        }
        var scale: Int64 = 1
        for _ in 0..<max(0, min(decimals, 9)) { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard abs(scaled) < 9.0e18 else {
            appendInteger(Int64(value.rounded()), to: &bytes)
            return
        }
        var fixed = Int64(scaled)
        if fixed < 0 {
            bytes.append(UInt8(ascii: "-"))
            fixed = -fixed
        }
        appendInteger(fixed / scale, to: &bytes)
        var fraction = fixed % scale
        guard fraction != 0 else { return }
        var width = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        bytes.append(UInt8(ascii: "."))
        var divisor: Int64 = 1
        for _ in 1..<max(1, width) { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }
}
