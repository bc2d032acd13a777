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

    /// The most frequent line by far (every finger, every frame): written as a template, each key with its comma
    /// as one literal (`JSONWriter.template`).
    public static func encode(_ touch: DispatchedTouch, into writer: inout JSONWriter) {
        FingerEventEncoder.templateHead(
            touch.phase, device: touch.device, finger: touch.finger, slot: touch.slot, time: touch.time, into: &writer)
        if let region = touch.region {
            writer.template(#","region":"#)
            writer.templateValue(region)
        } else {
            writer.template(#","region":null"#)
        }
        writer.template(#","x":"#)
        writer.templateValue(touch.location.x)
        writer.template(#","y":"#)
        writer.templateValue(touch.location.y)
        writer.template(#","local_x":"#)
        writer.templateValue(touch.local.x)
        writer.template(#","local_y":"#)
        writer.templateValue(touch.local.y)
        writer.template(#","prev_x":"#)
        writer.templateValue(touch.previous.x)
        writer.template(#","prev_y":"#)
        writer.templateValue(touch.previous.y)
        writer.template(#","dx":"#)
        writer.templateValue(touch.translation.x)
        writer.template(#","dy":"#)
        writer.templateValue(touch.translation.y)
        writer.template(#","since_down_us":"#)
        writer.templateValue(touch.sinceDown.microseconds)
        writer.template(#","taps":"#)
        writer.templateValue(Int64(touch.tapCount))
        writer.template(#","raw_x":"#)
        writer.templateValue(Int64(touch.contact.x))
        writer.template(#","raw_y":"#)
        writer.templateValue(Int64(touch.contact.y))
        FingerEventEncoder.templateAttributes(touch.contact, into: &writer)
        writer.template("}\n")
    }

    /// Gesture lines come with every `changed` of a drag or pinch: a template too.
    public static func encode(_ gesture: GestureEvent, region: String, into writer: inout JSONWriter) {
        writer.template(#"{"type":"gesture","region":"#)
        writer.templateValue(region)
        writer.template(#","gesture":"#)
        writer.templateValue(gesture.name)
        writer.template(kindField(gesture.kind))
        writer.template(stateField(gesture.event))
        writer.template(#","time_us":"#)
        writer.templateValue(gesture.time.microseconds)
        writer.template(#","x":"#)
        writer.templateValue(gesture.location.x)
        writer.template(#","y":"#)
        writer.templateValue(gesture.location.y)
        writer.template(#","fingers":"#)
        writer.templateValue(Int64(gesture.fingers))
        switch gesture.kind {
        case .tap:
            writer.template(#","taps":"#)
            writer.templateValue(Int64(gesture.taps))
        case .drag, .longPressDrag, .longPress:
            writer.template(#","dx":"#)
            writer.templateValue(gesture.translation.x)
            writer.template(#","dy":"#)
            writer.templateValue(gesture.translation.y)
            writer.template(#","vx":"#)
            writer.templateValue(gesture.velocity.x)
            writer.template(#","vy":"#)
            writer.templateValue(gesture.velocity.y)
        case .swipe:
            writer.template(#","dx":"#)
            writer.templateValue(gesture.translation.x)
            writer.template(#","dy":"#)
            writer.templateValue(gesture.translation.y)
            if let direction = gesture.direction {
                writer.template(#","direction":"#)
                writer.templateValue(direction.rawValue)
            }
        case .pinch, .rotate:
            writer.template(#","scale":"#)
            writer.templateValue(gesture.scale, decimals: 4)
            writer.template(#","rotation":"#)
            writer.templateValue(gesture.rotation, decimals: 2)
        }
        writer.template("}\n")
    }

    private static func kindField(_ kind: GestureKind) -> StaticString {
        switch kind {
        case .tap: #","kind":"tap""#
        case .longPress: #","kind":"long-press""#
        case .drag: #","kind":"drag""#
        case .longPressDrag: #","kind":"long-press-drag""#
        case .swipe: #","kind":"swipe""#
        case .pinch: #","kind":"pinch""#
        case .rotate: #","kind":"rotate""#
        }
    }

    private static func stateField(_ state: GestureEventKind) -> StaticString {
        switch state {
        case .pressing: #","state":"pressing""#
        case .began: #","state":"began""#
        case .changed: #","state":"changed""#
        case .ended: #","state":"ended""#
        case .failed: #","state":"failed""#
        case .cancelled: #","state":"cancelled""#
        }
    }
}
