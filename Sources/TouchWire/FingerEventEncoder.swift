import TouchCore
import TouchJSON

/// Encodes finger events as NDJSON lines (docs/protocol.md, "Finger events").
public enum FingerEventEncoder {
    /// Appends one line for a finger event.
    public static func encode(_ mapped: MappedFingerEvent, device: String, into writer: inout JSONWriter) {
        let event = mapped.event
        writer.beginObject()
        writer.field("type", event.phase.rawValue)
        writer.field("device", device)
        writer.field("finger", event.finger.rawValue)
        writer.field("slot", event.slot)
        writer.field("time_us", event.time.microseconds)
        writer.field("x", mapped.position.x)
        writer.field("y", mapped.position.y)
        writer.field("raw_x", event.contact.x)
        writer.field("raw_y", event.contact.y)
        encodeAttributes(event.contact, into: &writer)
        writer.endObject()
        writer.newline()
    }

    /// The optional attributes, present only when the device reports them.
    public static func encodeAttributes(_ contact: ContactState, into writer: inout JSONWriter) {
        if let value = contact.pressure { writer.field("pressure", value) }
        if let value = contact.touchMajor { writer.field("touch_major", value) }
        if let value = contact.touchMinor { writer.field("touch_minor", value) }
        if let value = contact.widthMajor { writer.field("width_major", value) }
        if let value = contact.widthMinor { writer.field("width_minor", value) }
        if let value = contact.orientation { writer.field("orientation", value) }
        if let value = contact.distance { writer.field("distance", value) }
        if let value = contact.toolType { writer.field("tool", ToolType.name(value)) }
    }

    /// The optional attributes inside a template-written line (`JSONWriter.template`): the same keys and values
    /// as `encodeAttributes`.
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
