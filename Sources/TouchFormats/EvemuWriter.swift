import TouchCore

/// Writes evemu 1.3 text (description and events) that evemu-device and evemu-play read.
public enum EvemuWriter {
    /// How event times are written.
    public enum TimeBase: Sendable {
        /// As they are.
        case unchanged
        /// Relative to the first event, which is written at `0.000001` as evemu-record 1.3 writes it (libevemu's
        /// `evemu_record` subtracts the first time less 1 µs). Not `0.000000`: evemu-play takes a zero time for
        /// "no previous event" and would play the first two frames back to back, losing the first gap.
        case relativeToFirstEvent
    }

    /// Mask lines per type in evemu's layout: 8 bytes a line, KEY_MAX needs 12 lines and FF_MAX 2.
    private static let maskLayout: [(type: UInt16, lines: Int)] = [
        (EventType.syn, 1), (EventType.key, 12), (EventType.rel, 1), (EventType.abs, 1), (EventType.msc, 1),
        (EventType.sw, 1), (EventType.led, 1), (EventType.snd, 1), (EventType.rep, 1), (EventType.ff, 2),
    ]

    public static func write(
        description: DeviceDescription, events: [InputEvent], timeBase: TimeBase = .unchanged
    ) -> String {
        var out = writeDescription(description)
        out.reserveCapacity(out.utf8.count + events.count * 48)
        var lines = EventLines(timeBase: timeBase)
        lines.append(events, to: &out)
        return out
    }

    /// The `E:` lines of a stream written in pieces, as `touchd record` gets it from a device, one read at a time.
    /// The time base and the gap in each SYN_REPORT's comment carry over from one piece to the next, so the pieces
    /// together are what ``EvemuWriter/write(description:events:timeBase:)`` writes for all the events at once.
    public struct EventLines: Sendable {
        private let timeBase: TimeBase
        /// Subtracted from every time; set by the first event.
        private var origin: EventTime?
        /// The time of the last SYN_REPORT (or of the first event, before the first SYN_REPORT).
        private var frameStart = EventTime.zero

        public init(timeBase: TimeBase) { self.timeBase = timeBase }

        public mutating func append(_ events: some Sequence<InputEvent>, to out: inout String) {
            for event in events {
                let origin: EventTime
                if let known = self.origin {
                    origin = known
                } else {
                    // One microsecond before the first event, so that the first is written as 0.000001.
                    origin = timeBase == .relativeToFirstEvent ? event.time + .init(microseconds: -1) : .zero
                    self.origin = origin
                    frameStart = event.time
                }
                out +=
                    "E: \(EventTime(microseconds: (event.time - origin).microseconds)) \(EvemuWriter.hex4(event.type)) "
                out += "\(EvemuWriter.hex4(event.code)) \(EvemuWriter.padded(event.value))\t# "
                if event.isSynReport {
                    out +=
                        "------------ SYN_REPORT (0) ---------- +\((event.time - frameStart).microseconds / 1000)ms\n"
                    frameStart = event.time
                } else {
                    out += EventNames.label(type: event.type, code: event.code) + " \(event.value)\n"
                }
            }
        }
    }

    public static func writeDescription(_ description: DeviceDescription) -> String {
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(description.name)\"\n"
        let id = description.id
        out += "# Input device ID: bus 0x\(hex(id.bustype)) vendor 0x\(hex(id.vendor)) product 0x\(hex(id.product))"
        out += " version 0x\(hex(id.version))\n"
        out += "# Written by touchd\n"
        out += "N: \(description.name)\n"
        out += "I: \(hex4(id.bustype)) \(hex4(id.vendor)) \(hex4(id.product)) \(hex4(id.version))\n"
        out += "P:" + maskBytes(description.properties, byteCount: 8).map { " " + hex2($0) }.joined() + "\n"
        var supportedTypes: Set<UInt16> = [EventType.syn]
        for (type, codes) in description.codes where !codes.isEmpty && type != EventType.syn {
            supportedTypes.insert(type)
        }
        for (type, lines) in maskLayout {
            let codes = type == EventType.syn ? supportedTypes : description.codes[type] ?? []
            let bytes = maskBytes(codes, byteCount: lines * 8)
            for line in 0..<lines {
                out += "B: " + hex2(UInt8(type))
                out += bytes[(line * 8)..<(line * 8 + 8)].map { " " + hex2($0) }.joined() + "\n"
            }
        }
        for code in description.absInfo.keys.sorted() {
            let info = description.absInfo[code]!
            out +=
                "A: \(hex2(UInt8(code))) \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)\n"
        }
        return out
    }

    private static func maskBytes(_ bits: Set<UInt16>, byteCount: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for bit in bits where Int(bit) < byteCount * 8 { bytes[Int(bit) / 8] |= 1 << (bit % 8) }
        return bytes
    }

    private static func hex(_ value: UInt16) -> String { String(value, radix: 16) }

    private static func hex2(_ value: UInt8) -> String {
        let digits = String(value, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `%04d`, as evemu prints values: `0360`, `-001`.
    private static func padded(_ value: Int32) -> String {
        let digits = String(value.magnitude)
        let width = value < 0 ? 3 : 4
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
