import TouchCore
import TouchGestures
import TouchJSON
import TouchScene

/// Encodes dispatched events as NDJSON lines (docs/protocol.md, "Dispatched events").
public enum DispatchEventEncoder {
    public static func encode(_ event: DispatchEvent, into writer: inout JSONWriter) {
        switch event {
        case .touch(let touch): encode(touch, into: &writer)
        case .gesture(let region, let gesture): encode(gesture, region: region, into: &writer)
        case .regionMoved(let region, let frame, let time):
            writer.beginObject()
            writer.field("type", "region-moved")
            writer.field("region", region)
            writer.field("time_us", time.microseconds)
            writer.beginArray("frame")
            for value in [frame.x, frame.y, frame.width, frame.height] { writer.element(value) }
            writer.endArray()
            writer.endObject()
            writer.newline()
        case .frame(let device, let time):
            FingerEventEncoder.encodeFrame(time: time, device: device, into: &writer)
        }
    }

    public static func encode(_ touch: DispatchedTouch, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("type", touch.phase.rawValue)
        writer.field("device", touch.device)
        writer.field("finger", touch.finger.rawValue)
        writer.field("slot", touch.slot)
        writer.field("time_us", touch.time.microseconds)
        if let region = touch.region { writer.field("region", region) } else { writer.nullField("region") }
        writer.field("x", touch.location.x)
        writer.field("y", touch.location.y)
        writer.field("local_x", touch.local.x)
        writer.field("local_y", touch.local.y)
        writer.field("prev_x", touch.previous.x)
        writer.field("prev_y", touch.previous.y)
        writer.field("dx", touch.translation.x)
        writer.field("dy", touch.translation.y)
        writer.field("since_down_us", touch.sinceDown.microseconds)
        writer.field("taps", touch.tapCount)
        writer.field("raw_x", touch.contact.x)
        writer.field("raw_y", touch.contact.y)
        FingerEventEncoder.encodeAttributes(touch.contact, into: &writer)
        writer.endObject()
        writer.newline()
    }

    public static func encode(_ gesture: GestureEvent, region: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("type", "gesture")
        writer.field("region", region)
        writer.field("gesture", gesture.name)
        writer.field("kind", gesture.kind.rawValue)
        writer.field("state", gesture.event.rawValue)
        writer.field("time_us", gesture.time.microseconds)
        writer.field("x", gesture.location.x)
        writer.field("y", gesture.location.y)
        writer.field("fingers", gesture.fingers)
        switch gesture.kind {
        case .tap:
            writer.field("taps", gesture.taps)
        case .drag, .longPressDrag, .longPress:
            writer.field("dx", gesture.translation.x)
            writer.field("dy", gesture.translation.y)
            writer.field("vx", gesture.velocity.x)
            writer.field("vy", gesture.velocity.y)
        case .swipe:
            writer.field("dx", gesture.translation.x)
            writer.field("dy", gesture.translation.y)
            if let direction = gesture.direction { writer.field("direction", direction.rawValue) }
        case .pinch, .rotate:
            writer.field("scale", gesture.scale, decimals: 4)
            writer.field("rotation", gesture.rotation, decimals: 2)
        }
        writer.endObject()
        writer.newline()
    }
}
