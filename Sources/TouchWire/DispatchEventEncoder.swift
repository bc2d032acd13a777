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
        case .regionScrolled(let region, let offset, let time):
            writer.beginObject()
            writer.field("type", "region-scrolled")
            writer.field("region", region)
            writer.field("time_us", time.microseconds)
            writer.beginArray("offset")
            writer.element(offset.x)
            writer.element(offset.y)
            writer.endArray()
            writer.endObject()
            writer.newline()
        case .frame(let device, let time):
            FingerEventEncoder.encodeFrame(time: time, device: device, into: &writer)
        }
    }

    /// The event at `position`, switched on where the array holds it: an event passed as an argument is copied
    /// (its 197 bytes) on the way in.
    public static func encode(_ events: [DispatchEvent], at position: Int, into writer: inout JSONWriter) {
        switch events[position] {
        case .touch(let touch): encode(touch, into: &writer)
        case .gesture(let region, let gesture): encode(gesture, region: region, into: &writer)
        case .frame(let device, let time): FingerEventEncoder.encodeFrame(time: time, device: device, into: &writer)
        case .regionMoved, .regionScrolled: encode(events[position], into: &writer)
        }
    }

    /// The most frequent line by far (every finger, every frame): written as a template, each key with its comma
    /// as one literal (`JSONWriter.writeTemplate`).
    public static func encode(_ touch: DispatchedTouch, into writer: inout JSONWriter) {
        let strings = touch.deviceID.jsonCount + (touch.regionID?.jsonCount ?? 0)
        writer.writeTemplate(maximum: FingerEventEncoder.lineBound(strings: strings)) { line in
            FingerEventEncoder.templateHead(
                touch.phase, device: touch.deviceID, finger: touch.finger, slot: touch.slot, time: touch.time,
                into: &line
            )
            if let region = touch.regionID {
                line.literal(#","region":"#)
                line.string(region)
            } else {
                line.literal(#","region":null"#)
            }
            // x and y are kept for this line's local_x and local_y (the same Doubles when the region is at the
            // origin), then for the finger's next prev_x and prev_y (the same Doubles as this x and y): a number
            // reused only when bit-identical, so the bytes are the same either way (`NumberMemo`).
            let fingerSlot = MemoSlot.finger(touch.finger)
            line.literal(#","x":"#)
            line.hundredths(touch.location.x, keepingIn: MemoSlot.lineX)
            line.literal(#","y":"#)
            line.hundredths(touch.location.y, keepingIn: MemoSlot.lineY)
            line.literal(#","local_x":"#)
            line.hundredths(touch.local.x, reusing: MemoSlot.lineX)
            line.literal(#","local_y":"#)
            line.hundredths(touch.local.y, reusing: MemoSlot.lineY)
            line.literal(#","prev_x":"#)
            line.hundredths(touch.previous.x, reusing: fingerSlot)
            line.literal(#","prev_y":"#)
            line.hundredths(touch.previous.y, reusing: fingerSlot + 1)
            line.keep(MemoSlot.lineX, in: fingerSlot)
            line.keep(MemoSlot.lineY, in: fingerSlot + 1)
            line.literal(#","dx":"#)
            line.hundredths(touch.translation.x)
            line.literal(#","dy":"#)
            line.hundredths(touch.translation.y)
            line.literal(#","since_down_us":"#)
            line.integer(touch.sinceDown.microseconds)
            line.literal(#","taps":"#)
            line.integer(Int64(touch.tapCount))
            line.literal(#","raw_x":"#)
            line.integer(Int64(touch.contact.x))
            line.literal(#","raw_y":"#)
            line.integer(Int64(touch.contact.y))
            FingerEventEncoder.templateAttributes(touch.contact, into: &line)
            line.literal("}\n")
        }
    }

    /// The writer's memo slots: the last touch line's x and y, and two a finger (ids modulo 16 share one pair).
    private enum MemoSlot {
        static let lineX = 0
        static let lineY = 1
        static func finger(_ finger: FingerID) -> Int { 2 + 2 * Int(finger.rawValue & 15) }
    }

    /// Gesture lines come with every `changed` of a drag or pinch: a template too.
    public static func encode(_ gesture: GestureEvent, region: InternedString, into writer: inout JSONWriter) {
        let strings = region.jsonCount + gesture.nameID.jsonCount
        writer.writeTemplate(maximum: FingerEventEncoder.lineBound(strings: strings)) { line in
            gestureHead(gesture, region: region, into: &line)
            // A one-finger gesture is where its finger's touch line, just before, put it.
            line.literal(#","x":"#)
            line.hundredths(gesture.location.x, reusing: MemoSlot.lineX)
            line.literal(#","y":"#)
            line.hundredths(gesture.location.y, reusing: MemoSlot.lineY)
            line.literal(#","fingers":"#)
            line.integer(Int64(gesture.fingers))
            switch gesture.kind {
            case .tap:
                line.literal(#","taps":"#)
                line.integer(Int64(gesture.taps))
            case .drag, .longPressDrag, .longPress:
                line.literal(#","dx":"#)
                line.hundredths(gesture.translation.x)
                line.literal(#","dy":"#)
                line.hundredths(gesture.translation.y)
                line.literal(#","vx":"#)
                line.hundredths(gesture.velocity.x)
                line.literal(#","vy":"#)
                line.hundredths(gesture.velocity.y)
            case .swipe:
                line.literal(#","dx":"#)
                line.hundredths(gesture.translation.x)
                line.literal(#","dy":"#)
                line.hundredths(gesture.translation.y)
                if let direction = gesture.direction {
                    line.literal(#","direction":"#)
                    line.string(direction.rawValue)
                }
            case .pinch, .rotate:
                line.literal(#","scale":"#)
                line.double(gesture.scale, decimals: 4)
                line.literal(#","rotation":"#)
                line.double(gesture.rotation, decimals: 2)
            }
            line.literal("}\n")
        }
    }

    /// The keys every gesture line starts with: type, region, gesture, kind, state and time.
    @inline(__always)
    static func gestureHead(_ gesture: GestureEvent, region: InternedString, into line: inout TemplateCursor) {
        line.literal(#"{"type":"gesture","region":"#)
        line.string(region)
        line.literal(#","gesture":"#)
        line.string(gesture.nameID)
        kindField(gesture.kind, into: &line)
        stateField(gesture.event, into: &line)
        line.literal(#","time_us":"#)
        line.integer(gesture.time.microseconds, memoIn: FingerEventEncoder.timeSlot)
    }

    /// Each case writes its own literal, whose length is known where it is copied (a few stores); a literal
    /// chosen first and copied after had its length known only at run time, a call to memcpy.
    @inline(__always)
    private static func kindField(_ kind: GestureKind, into line: inout TemplateCursor) {
        switch kind {
        case .tap: line.literal(#","kind":"tap""#)
        case .longPress: line.literal(#","kind":"long-press""#)
        case .drag: line.literal(#","kind":"drag""#)
        case .longPressDrag: line.literal(#","kind":"long-press-drag""#)
        case .swipe: line.literal(#","kind":"swipe""#)
        case .pinch: line.literal(#","kind":"pinch""#)
        case .rotate: line.literal(#","kind":"rotate""#)
        }
    }

    @inline(__always)
    private static func stateField(_ state: GestureEventKind, into line: inout TemplateCursor) {
        switch state {
        case .pressing: line.literal(#","state":"pressing""#)
        case .began: line.literal(#","state":"began""#)
        case .changed: line.literal(#","state":"changed""#)
        case .ended: line.literal(#","state":"ended""#)
        case .failed: line.literal(#","state":"failed""#)
        case .cancelled: line.literal(#","state":"cancelled""#)
        }
    }
}
