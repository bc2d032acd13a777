import TouchCore

/// Guesses a device description from events alone, for recordings that come without one.
///
/// Axis ranges run from min(0, lowest value seen) to the highest value seen (real touch axes nearly always
/// start at 0); tracking ids get the kernel's usual 0...65535. A stream with `SYN_MT_REPORT` is protocol A; MT
/// positions without it are protocol B, with as many slots as the highest `ABS_MT_SLOT` seen (at least one,
/// for streams that never send `ABS_MT_SLOT`). The result is approximate, and readers say so.
public enum DescriptionInference {
    public static func infer(from events: [InputEvent], name: String = "unknown device") -> DeviceDescription {
        var statistics = EventStatistics()
        for event in events { statistics.note(event) }
        return infer(from: statistics, name: name)
    }

    /// The same guess from what a pass over the events noted, so a streaming reader need not keep them.
    public static func infer(from statistics: EventStatistics, name: String = "unknown device") -> DeviceDescription {
        let codes = statistics.codes
        let (lowest, highest) = statistics.absoluteRanges
        var absInfo: [UInt16: AbsInfo] = [:]
        for (code, high) in highest {
            let low = min(0, lowest[code] ?? 0)
            absInfo[code] = AbsInfo(minimum: low, maximum: max(high, low + 1))
        }
        if absInfo[AbsCode.mtTrackingID] != nil || codes[EventType.abs]?.contains(AbsCode.mtTrackingID) == true {
            absInfo[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535)
        }
        // A stream with touches but no positions still needs axes to map; give it a unit range.
        let multitouch = codes[EventType.abs]?.contains { $0 >= AbsCode.mtSlot } ?? false
        if multitouch {
            for code in [AbsCode.mtPositionX, AbsCode.mtPositionY] where absInfo[code] == nil {
                absInfo[code] = AbsInfo(minimum: 0, maximum: 1)
            }
        }
        if statistics.sawContactReport {
            absInfo[AbsCode.mtSlot] = nil
        } else if absInfo[AbsCode.mtPositionX] != nil {
            absInfo[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: max(0, highest[AbsCode.mtSlot] ?? 0))
        }
        return DeviceDescription(name: name, codes: codes, absInfo: absInfo)
    }

    /// Adds the absolute axes that the events use but the description lacks (some real description headers are
    /// incomplete), with ranges inferred as in `infer(from:name:)`.
    /// - Returns: the codes that were added.
    @discardableResult
    public static func complete(_ description: inout DeviceDescription, from events: [InputEvent]) -> [UInt16] {
        var statistics = EventStatistics()
        for event in events { statistics.note(event) }
        return complete(&description, from: statistics)
    }

    @discardableResult
    public static func complete(_ description: inout DeviceDescription, from statistics: EventStatistics) -> [UInt16] {
        let used = statistics.codes[EventType.abs] ?? []
        let missing = used.filter { description.absInfo[$0] == nil && $0 != AbsCode.mtSlot }
        guard !missing.isEmpty else { return [] }
        let inferred = infer(from: statistics)
        for code in missing {
            guard let info = inferred.absInfo[code] else { continue }
            description.absInfo[code] = info
            description.codes[EventType.abs, default: []].insert(code)
        }
        return missing.sorted()
    }
}
