import TouchCore
import TouchJSON

/// Encodes finger events as NDJSON lines (docs/protocol.md, "Finger events").
public enum FingerEventEncoder {
    /// Appends one line for a finger event, written as a template (`JSONWriter.writeTemplate`).
    public static func encode(_ mapped: MappedFingerEvent, device: String, into writer: inout JSONWriter) {
        let event = mapped.event
        writer.writeTemplate(maximum: lineBound(strings: device.utf8.count)) { line in
            templateHead(
                event.phase, device: device, finger: event.finger, slot: event.slot, time: event.time, into: &line)
            line.literal(#","x":"#)
            line.hundredths(mapped.position.x)
            line.literal(#","y":"#)
            line.hundredths(mapped.position.y)
            line.literal(#","raw_x":"#)
            line.integer(Int64(event.contact.x))
            line.literal(#","raw_y":"#)
            line.integer(Int64(event.contact.y))
            templateAttributes(event.contact, into: &line)
            line.literal("}\n")
        }
    }

    /// Room for any one event line: its keys and punctuation, 32 bytes for each number, and six bytes for each byte
    /// of its strings (the most escaping makes of one) with their quotes.
    public static func lineBound(strings: Int) -> Int { 1536 + 6 * strings }

    /// The fields every finger and touch line starts with: `{"type":…,"device":…,"finger":…,"slot":…,"time_us":…`.
    public static func templateHead(
        _ phase: TouchPhase, device: String, finger: FingerID, slot: Int32, time: EventTime,
        into line: inout TemplateCursor
    ) {
        typeAndDeviceKey(phase, into: &line)
        line.string(device)
        templateFinger(finger, slot: slot, time: time, into: &line)
    }

    /// The same with the device's name interned: its JSON form copied as it was made.
    public static func templateHead(
        _ phase: TouchPhase, device: InternedString, finger: FingerID, slot: Int32, time: EventTime,
        into line: inout TemplateCursor
    ) {
        typeAndDeviceKey(phase, into: &line)
        line.string(device)
        templateFinger(finger, slot: slot, time: time, into: &line)
    }

    /// Inlined into the line's template, like `templateFinger`: as calls they stored the cursor and loaded it back.
    @inline(__always)
    private static func typeAndDeviceKey(_ phase: TouchPhase, into line: inout TemplateCursor) {
        switch phase {
        case .down: line.literal(#"{"type":"down","device":"#)
        case .move: line.literal(#"{"type":"move","device":"#)
        case .up: line.literal(#"{"type":"up","device":"#)
        case .cancel: line.literal(#"{"type":"cancel","device":"#)
        }
    }

    /// `{"type":…` alone, for a line whose device key was not selected (`FieldSelection`).
    @inline(__always)
    static func typeKey(_ phase: TouchPhase, into line: inout TemplateCursor) {
        switch phase {
        case .down: line.literal(#"{"type":"down""#)
        case .move: line.literal(#"{"type":"move""#)
        case .up: line.literal(#"{"type":"up""#)
        case .cancel: line.literal(#"{"type":"cancel""#)
        }
    }

    @inline(__always)
    private static func templateFinger(
        _ finger: FingerID, slot: Int32, time: EventTime, into line: inout TemplateCursor
    ) {
        line.literal(#","finger":"#)
        line.integer(Int64(finger.rawValue))
        line.literal(#","slot":"#)
        line.integer(Int64(slot))
        line.literal(#","time_us":"#)
        line.integer(time.microseconds, memoIn: timeSlot)
    }

    /// The writer's integer slot for the time: every line of a frame, and the frame's own, print the same.
    static let timeSlot = 0

    /// The optional attributes, present only when the device reports them, inside a template-written line.
    public static func templateAttributes(_ contact: ContactState, into line: inout TemplateCursor) {
        templateAttributes(contact, selecting: .all, into: &line)
    }

    /// The attributes that `fields` selects, of those the device reports. Inlined: with every field selected, the
    /// tests of the selection fold away.
    @inline(__always)
    static func templateAttributes(
        _ contact: ContactState, selecting fields: FieldSelection, into line: inout TemplateCursor
    ) {
        if let value = contact.pressure, fields.contains(.pressure) {
            line.literal(#","pressure":"#)
            line.integer(Int64(value))
        }
        if let value = contact.touchMajor, fields.contains(.touchMajor) {
            line.literal(#","touch_major":"#)
            line.integer(Int64(value))
        }
        if let value = contact.touchMinor, fields.contains(.touchMinor) {
            line.literal(#","touch_minor":"#)
            line.integer(Int64(value))
        }
        if let value = contact.widthMajor, fields.contains(.widthMajor) {
            line.literal(#","width_major":"#)
            line.integer(Int64(value))
        }
        if let value = contact.widthMinor, fields.contains(.widthMinor) {
            line.literal(#","width_minor":"#)
            line.integer(Int64(value))
        }
        if let value = contact.orientation, fields.contains(.orientation) {
            line.literal(#","orientation":"#)
            line.integer(Int64(value))
        }
        if let value = contact.distance, fields.contains(.distance) {
            line.literal(#","distance":"#)
            line.integer(Int64(value))
        }
        if let value = contact.toolType, fields.contains(.tool) {
            line.literal(#","tool":"#)
            line.string(ToolType.name(value))
        }
    }

    /// Appends the end-of-frame line.
    public static func encodeFrame(time: EventTime, device: String, into writer: inout JSONWriter) {
        writer.writeTemplate(maximum: lineBound(strings: device.utf8.count)) { line in
            line.literal(#"{"type":"frame","device":"#)
            line.string(device)
            line.literal(#","time_us":"#)
            line.integer(time.microseconds, memoIn: timeSlot)
            line.literal("}\n")
        }
    }

    /// The same with the device's name interned. Inlined where dispatched events are encoded: one frame line a
    /// device frame.
    @inline(__always)
    public static func encodeFrame(time: EventTime, device: InternedString, into writer: inout JSONWriter) {
        writer.writeTemplate(maximum: lineBound(strings: device.jsonCount)) { line in
            line.literal(#"{"type":"frame","device":"#)
            line.string(device)
            line.literal(#","time_us":"#)
            line.integer(time.microseconds, memoIn: timeSlot)
            line.literal("}\n")
        }
    }
}
