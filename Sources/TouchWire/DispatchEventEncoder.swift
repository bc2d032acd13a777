import TouchCore
import TouchGestures
import TouchJSON
import TouchScene

/// Encodes dispatched events as NDJSON lines (docs/protocol.md, "Dispatched events").
public enum DispatchEventEncoder {
    /// One event alone (tests, tools): the line `encode(_:at:selecting:into:)` writes for it.
    public static func encode(
        _ event: DispatchEvent, selecting fields: FieldSelection = .all, into writer: inout JSONWriter
    ) {
        encode([event], at: 0, selecting: fields, into: &writer)
    }

    /// The one way a dispatched event becomes its line, for a client's queue and for `touchd replay` alike: the
    /// event at `position`, with the keys `fields` selects (`.all`: the whole line). Returns how a slow client's
    /// queue may coalesce the line. Switched on once, where the array holds it: each switch over an event copies it
    /// (197 bytes) to take its payload out, and an event passed as an argument is copied on the way in.
    @discardableResult
    public static func encode(
        _ events: [DispatchEvent], at position: Int, selecting fields: FieldSelection, into writer: inout JSONWriter
    ) -> LineCoalescing {
        switch events[position] {
        case .touch(let touch):
            // The whole line's printers called straight, not through the selecting ones, which test the selection
            // at each key.
            if fields == .all {
                encodeWhole(touch, into: &writer)
            } else {
                encode(touch, selecting: fields, into: &writer)
            }
            return .of(touch)
        case .gesture(let region, let gesture):
            if fields == .all {
                encodeWhole(gesture, region: region, into: &writer)
            } else {
                encode(gesture, region: region, selecting: fields, into: &writer)
            }
            return .of(gesture, region: region)
        case .frame(let device, let time):
            FingerEventEncoder.encodeFrame(time: time, device: device, into: &writer)
            return .essential
        case .regionMoved(let region, let frame, let time):
            encodeRegionMoved(region, frame: frame, time: time, into: &writer)
            return .essential
        case .regionScrolled(let region, let offset, let time):
            encodeRegionScrolled(region, offset: offset, time: time, into: &writer)
            return .essential
        }
    }

    private static func encodeRegionMoved(
        _ region: InternedString, frame: Rect, time: EventTime, into writer: inout JSONWriter
    ) {
        writer.beginObject()
        writer.field("type", "region-moved")
        writer.field("region", region)
        writer.field("time_us", time.microseconds)
        writer.beginArray("frame")
        for value in [frame.x, frame.y, frame.width, frame.height] { writer.element(value) }
        writer.endArray()
        writer.endObject()
        writer.newline()
    }

    private static func encodeRegionScrolled(
        _ region: InternedString, offset: Point, time: EventTime, into writer: inout JSONWriter
    ) {
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
    }

    /// The most frequent line by far (every finger, every frame): written as a template, each key with its comma
    /// as one literal (`JSONWriter.writeTemplate`).
    public static func encode(_ touch: DispatchedTouch, into writer: inout JSONWriter) {
        encodeWhole(touch, into: &writer)
    }

    /// Inlined into `encode(_:at:selecting:into:)`: called, it took the touch by address, one more copy of it.
    @inline(__always)
    static func encodeWhole(_ touch: DispatchedTouch, into writer: inout JSONWriter) {
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
            // dx and dy are kept for a one-finger drag's gesture line after this one (the same Doubles: the drag's
            // translation is its finger's since the down).
            line.literal(#","dx":"#)
            line.hundredths(touch.translation.x, keepingIn: MemoSlot.lineDX)
            line.literal(#","dy":"#)
            line.hundredths(touch.translation.y, keepingIn: MemoSlot.lineDY)
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

    /// The writer's memo slots: the last touch line's x and y, two a finger (ids modulo 16 share one pair), and the
    /// last touch line's dx and dy.
    private enum MemoSlot {
        static let lineX = 0
        static let lineY = 1
        static func finger(_ finger: FingerID) -> Int { 2 + 2 * Int(finger.rawValue & 15) }
        static let lineDX = 34
        static let lineDY = 35
    }

    /// Gesture lines come with every `changed` of a drag or pinch: a template too.
    public static func encode(_ gesture: GestureEvent, region: InternedString, into writer: inout JSONWriter) {
        encodeWhole(gesture, region: region, into: &writer)
    }

    @inline(__always)
    static func encodeWhole(_ gesture: GestureEvent, region: InternedString, into writer: inout JSONWriter) {
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
                line.hundredths(gesture.translation.x, reusing: MemoSlot.lineDX)
                line.literal(#","dy":"#)
                line.hundredths(gesture.translation.y, reusing: MemoSlot.lineDY)
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
