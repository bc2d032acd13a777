import TouchCore

/// What description inference needs to know about a recording's events, noted one event at a time: the codes
/// used, each absolute axis's lowest and highest value, and whether `SYN_MT_REPORT` appears. A streaming reader
/// notes every event on its first pass and keeps no event.
///
/// The codes that real devices send (types up to `EV_MAX`, codes up to `KEY_MAX`, axes up to `ABS_MAX`) are
/// noted in fixed tables, so a pass costs no hashing per event; anything else (a raw dump may hold any
/// numbers) goes to dictionaries. Absolute axes, most of a touchscreen's events, are noted in a bit mask and
/// inline arrays: no copy-on-write check or bounds check per event.
public struct EventStatistics: Sendable {
    private static let tableTypes = 0x20
    private static let tableCodes = 0x300
    /// Every axis up to `ABS_MAX`: one bit each in a 64-bit mask.
    private static let tableAxes = 64

    /// One bit per (type, code) in the table's range.
    private var seen = [UInt64](repeating: 0, count: tableTypes * tableCodes / 64)
    private var otherCodes: [UInt16: Set<UInt16>] = [:]
    /// The absolute axes used, tracking ids of -1 included (they are in `codes`, not in the ranges).
    private var axesUsed: UInt64 = 0
    /// The axes with a range below.
    private var axisSeen: UInt64 = 0
    private var axisLowest = InlineArray<64, Int32>(repeating: 0)
    private var axisHighest = InlineArray<64, Int32>(repeating: 0)
    private var otherLowest: [UInt16: Int32] = [:]
    private var otherHighest: [UInt16: Int32] = [:]
    public private(set) var sawContactReport = false

    public init() {}

    /// Notes a run of events (a streaming pass's batch) in one call, the single-event note inlined in the loop.
    public mutating func note(_ events: ArraySlice<InputEvent>) {
        for event in events { note(event) }
    }

    @inline(__always)
    public mutating func note(_ event: InputEvent) {
        if event.type == EventType.abs && event.code < Self.tableAxes {
            let code = Int(event.code)
            let mask: UInt64 = 1 << UInt64(code)
            axesUsed |= mask
            // Tracking ids of -1 end touches: they are no part of the id range.
            if event.code == AbsCode.mtTrackingID && event.value < 0 { return }
            if axisSeen & mask == 0 {
                axisSeen |= mask
                axisLowest[code] = event.value
                axisHighest[code] = event.value
            } else {
                axisLowest[code] = min(axisLowest[code], event.value)
                axisHighest[code] = max(axisHighest[code], event.value)
            }
            return
        }
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
        // An axis code beyond the tables (never a tracking id, which the tables hold).
        guard event.type == EventType.abs else { return }
        otherLowest[event.code] = min(otherLowest[event.code] ?? event.value, event.value)
        otherHighest[event.code] = max(otherHighest[event.code] ?? event.value, event.value)
    }

    /// Takes in what `other` noted, as if its events had been noted here too: the parts of a recording that
    /// threads read apart (`SplitSurvey`) are noted apart and merged.
    public mutating func merge(_ other: EventStatistics) {
        for index in seen.indices { seen[index] |= other.seen[index] }
        for (type, codes) in other.otherCodes { otherCodes[type, default: []].formUnion(codes) }
        axesUsed |= other.axesUsed
        for code in 0..<Self.tableAxes where other.axisSeen & (1 << UInt64(code)) != 0 {
            if axisSeen & (1 << UInt64(code)) == 0 {
                axisLowest[code] = other.axisLowest[code]
                axisHighest[code] = other.axisHighest[code]
            } else {
                axisLowest[code] = min(axisLowest[code], other.axisLowest[code])
                axisHighest[code] = max(axisHighest[code], other.axisHighest[code])
            }
        }
        axisSeen |= other.axisSeen
        for (code, value) in other.otherLowest { otherLowest[code] = min(otherLowest[code] ?? value, value) }
        for (code, value) in other.otherHighest { otherHighest[code] = max(otherHighest[code] ?? value, value) }
        sawContactReport = sawContactReport || other.sawContactReport
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
        for code in 0..<Self.tableAxes where axesUsed & (1 << UInt64(code)) != 0 {
            codes[EventType.abs, default: []].insert(UInt16(code))
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
