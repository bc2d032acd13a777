import TouchCore

/// What description inference needs to know about a recording's events, noted one event at a time: the codes
/// used, each absolute axis's lowest and highest value, and whether `SYN_MT_REPORT` appears. A streaming reader
/// notes every event on its first pass and keeps no event.
///
/// The codes that real devices send (types up to `EV_MAX`, codes up to `KEY_MAX`, axes up to `ABS_MAX`) are
/// noted in fixed tables, so a pass costs no hashing per event; anything else (a raw dump may hold any
/// numbers) goes to dictionaries.
public struct EventStatistics: Sendable {
    private static let tableTypes = 0x20
    private static let tableCodes = 0x300
    private static let tableAxes = Int(AbsCode.max) + 1

    /// One bit per (type, code) in the table's range.
    private var seen = [UInt64](repeating: 0, count: tableTypes * tableCodes / 64)
    private var otherCodes: [UInt16: Set<UInt16>] = [:]
    private var axisSeen: UInt64 = 0
    private var axisLowest = [Int32](repeating: 0, count: tableAxes)
    private var axisHighest = [Int32](repeating: 0, count: tableAxes)
    private var otherLowest: [UInt16: Int32] = [:]
    private var otherHighest: [UInt16: Int32] = [:]
    public private(set) var sawContactReport = false

    public init() {}

    public mutating func note(_ event: InputEvent) {
        if event.type == EventType.syn {
            if event.code == SynCode.mtReport { sawContactReport = true }
            return
        }
        let type = Int(event.type)
        let code = Int(event.code)
        if type < Self.tableTypes && code < Self.tableCodes {
            let bit = type * Self.tableCodes + code
            seen[bit >> 6] |= 1 << UInt64(bit & 63)
        } else {
            otherCodes[event.type, default: []].insert(event.code)
        }
        guard event.type == EventType.abs else { return }
        // Tracking ids of -1 end touches: they are no part of the id range.
        if event.code == AbsCode.mtTrackingID && event.value < 0 { return }
        if code < Self.tableAxes {
            let mask: UInt64 = 1 << UInt64(code)
            if axisSeen & mask == 0 {
                axisSeen |= mask
                axisLowest[code] = event.value
                axisHighest[code] = event.value
            } else {
                axisLowest[code] = min(axisLowest[code], event.value)
                axisHighest[code] = max(axisHighest[code], event.value)
            }
        } else {
            otherLowest[event.code] = min(otherLowest[event.code] ?? event.value, event.value)
            otherHighest[event.code] = max(otherHighest[event.code] ?? event.value, event.value)
        }
    }

    /// The codes used, by type (`EV_SYN` left out).
    public var codes: [UInt16: Set<UInt16>] {
        var codes = otherCodes
        for (word, bits) in seen.enumerated() where bits != 0 {
            for offset in 0..<64 where bits & (1 << UInt64(offset)) != 0 {
                let bit = word * 64 + offset
                codes[UInt16(bit / Self.tableCodes), default: []].insert(UInt16(bit % Self.tableCodes))
            }
        }
        return codes
    }

    /// Each absolute axis's lowest and highest value (tracking ids of -1 left out).
    var absoluteRanges: (lowest: [UInt16: Int32], highest: [UInt16: Int32]) {
        var lowest = otherLowest
        var highest = otherHighest
        for code in 0..<Self.tableAxes where axisSeen & (1 << UInt64(code)) != 0 {
            lowest[UInt16(code)] = axisLowest[code]
            highest[UInt16(code)] = axisHighest[code]
        }
        return (lowest, highest)
    }
}
