import TouchCore
import TouchJSON

/// Encodes finger events as NDJSON lines (docs/protocol.md, "Finger events").
public enum FingerEventEncoder {
    /// Appends one line for a finger event, written as a template (`JSONWriter.template`).
    public static func encode(_ mapped: MappedFingerEvent, device: String, into writer: inout JSONWriter) {
        let event = mapped.event
        templateHead(
            event.phase, device: device, finger: event.finger, slot: event.slot, time: event.time, into: &writer)
        writer.template(#","x":"#)
        writer.templateValue(mapped.position.x)
        writer.template(#","y":"#)
        writer.templateValue(mapped.position.y)
        writer.template(#","raw_x":"#)
        writer.templateValue(Int64(event.contact.x))
        writer.template(#","raw_y":"#)
        writer.templateValue(Int64(event.contact.y))
        templateAttributes(event.contact, into: &writer)
        writer.template("}\n")
    }

    /// The fields every finger and touch line starts with: `{"type":…,"device":…,"finger":…,"slot":…,"time_us":…`.
    public static func templateHead(
        _ phase: TouchPhase, device: String, finger: FingerID, slot: Int32, time: EventTime,
        into writer: inout JSONWriter
    ) {
        switch phase {
        case .down: writer.template(#"{"type":"down","device":"#)
        case .move: writer.template(#"{"type":"move","device":"#)
        case .up: writer.template(#"{"type":"up","device":"#)
        case .cancel: writer.template(#"{"type":"cancel","device":"#)
        }
        writer.templateValue(device)
        writer.template(#","finger":"#)
        writer.templateValue(Int64(finger.rawValue))
        writer.template(#","slot":"#)
        writer.templateValue(Int64(slot))
        writer.template(#","time_us":"#)
        writer.templateValue(time.microseconds)
    }

    /// The optional attributes, present only when the device reports them, inside a template-written line.
    public static func templateAttributes(_ contact: ContactState, into writer: inout JSONWriter) {
        if let value = contact.pressure {
            writer.template(#","pressure":"#)
            writer.templateValue(Int64(value))
        }
        if let value = contact.touchMajor {
            writer.template(#","touch_major":"#)
            writer.templateValue(Int64(value))
        }
        if let value = contact.touchMinor {
            writer.template(#","touch_minor":"#)
            writer.templateValue(Int64(value))
        }
        if let value = contact.widthMajor {
            writer.template(#","width_major":"#)
            writer.templateValue(Int64(value))
        }
        if let value = contact.widthMinor {
            writer.template(#","width_minor":"#)
            writer.templateValue(Int64(value))
        }
        if let value = contact.orientation {
            writer.template(#","orientation":"#)
            writer.templateValue(Int64(value))
        }
        if let value = contact.distance {
            writer.template(#","distance":"#)
            writer.templateValue(Int64(value))
        }
        if let value = contact.toolType {
            writer.template(#","tool":"#)
            writer.templateValue(ToolType.name(value))
        }
    }

    /// Appends the end-of-frame line.
    public static func encodeFrame(time: EventTime, device: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("type", "frame")
        writer.field("device", device)
        writer.field("time_us", time.microseconds)
        writer.endObject()
        writer.newline()
    }
}
