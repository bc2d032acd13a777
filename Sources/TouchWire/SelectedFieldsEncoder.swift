import TouchCore
import TouchGestures
import TouchJSON
import TouchScene

/// Touch and gesture lines for a subscriber that selected their keys (`FieldSelection`): the core keys and the
/// selected ones, in the order of the whole line, each written as the whole line writes it.
extension DispatchEventEncoder {
    public static func encode(_ touch: DispatchedTouch, selecting fields: FieldSelection, into writer: inout JSONWriter)
    {
        guard fields != .all else { return encode(touch, into: &writer) }
        let strings = touch.deviceID.jsonCount + (touch.regionID?.jsonCount ?? 0)
        writer.writeTemplate(maximum: FingerEventEncoder.lineBound(strings: strings)) { line in
            FingerEventEncoder.typeKey(touch.phase, into: &line)
            if fields.contains(.device) {
                line.literal(#","device":"#)
                line.string(touch.deviceID)
            }
            line.literal(#","finger":"#)
            line.integer(Int64(touch.finger.rawValue))
            if fields.contains(.slot) {
                line.literal(#","slot":"#)
                line.integer(Int64(touch.slot))
            }
            line.literal(#","time_us":"#)
            line.integer(touch.time.microseconds, memoIn: FingerEventEncoder.timeSlot)
            if fields.contains(.region) {
                if let region = touch.regionID {
                    line.literal(#","region":"#)
                    line.string(region)
                } else {
                    line.literal(#","region":null"#)
                }
            }
            line.literal(#","x":"#)
            line.hundredths(touch.location.x)
            line.literal(#","y":"#)
            line.hundredths(touch.location.y)
            if fields.contains(.localX) {
                line.literal(#","local_x":"#)
                line.hundredths(touch.local.x)
            }
            if fields.contains(.localY) {
                line.literal(#","local_y":"#)
                line.hundredths(touch.local.y)
            }
            if fields.contains(.previousX) {
                line.literal(#","prev_x":"#)
                line.hundredths(touch.previous.x)
            }
            if fields.contains(.previousY) {
                line.literal(#","prev_y":"#)
                line.hundredths(touch.previous.y)
            }
            if fields.contains(.dx) {
                line.literal(#","dx":"#)
                line.hundredths(touch.translation.x)
            }
            if fields.contains(.dy) {
                line.literal(#","dy":"#)
                line.hundredths(touch.translation.y)
            }
            if fields.contains(.sinceDown) {
                line.literal(#","since_down_us":"#)
                line.integer(touch.sinceDown.microseconds)
            }
            if fields.contains(.taps) {
                line.literal(#","taps":"#)
                line.integer(Int64(touch.tapCount))
            }
            if fields.contains(.rawX) {
                line.literal(#","raw_x":"#)
                line.integer(Int64(touch.contact.x))
            }
            if fields.contains(.rawY) {
                line.literal(#","raw_y":"#)
                line.integer(Int64(touch.contact.y))
            }
            FingerEventEncoder.templateAttributes(touch.contact, selecting: fields, into: &line)
            line.literal("}\n")
        }
    }

    public static func encode(
        _ gesture: GestureEvent, region: InternedString, selecting fields: FieldSelection, into writer: inout JSONWriter
    ) {
        guard fields != .all else { return encode(gesture, region: region, into: &writer) }
        let strings = region.jsonCount + gesture.nameID.jsonCount
        writer.writeTemplate(maximum: FingerEventEncoder.lineBound(strings: strings)) { line in
            line.literal(#"{"type":"gesture","region":"#)
            line.string(region)
            line.literal(#","gesture":"#)
            line.string(gesture.nameID)
            line.literal(#","kind":"#)
            line.string(gesture.kind.rawValue)
            line.literal(#","state":"#)
            line.string(gesture.event.rawValue)
            line.literal(#","time_us":"#)
            line.integer(gesture.time.microseconds, memoIn: FingerEventEncoder.timeSlot)
            line.literal(#","x":"#)
            line.hundredths(gesture.location.x)
            line.literal(#","y":"#)
            line.hundredths(gesture.location.y)
            line.literal(#","fingers":"#)
            line.integer(Int64(gesture.fingers))
            switch gesture.kind {
            case .tap:
                if fields.contains(.taps) {
                    line.literal(#","taps":"#)
                    line.integer(Int64(gesture.taps))
                }
            case .drag, .longPressDrag, .longPress:
                translation(gesture.translation, selecting: fields, into: &line)
                if fields.contains(.vx) {
                    line.literal(#","vx":"#)
                    line.hundredths(gesture.velocity.x)
                }
                if fields.contains(.vy) {
                    line.literal(#","vy":"#)
                    line.hundredths(gesture.velocity.y)
                }
            case .swipe:
                translation(gesture.translation, selecting: fields, into: &line)
                if fields.contains(.direction), let direction = gesture.direction {
                    line.literal(#","direction":"#)
                    line.string(direction.rawValue)
                }
            case .pinch, .rotate:
                if fields.contains(.scale) {
                    line.literal(#","scale":"#)
                    line.double(gesture.scale, decimals: 4)
                }
                if fields.contains(.rotation) {
                    line.literal(#","rotation":"#)
                    line.double(gesture.rotation, decimals: 2)
                }
            }
            line.literal("}\n")
        }
    }

    @inline(__always)
    private static func translation(_ value: Point, selecting fields: FieldSelection, into line: inout TemplateCursor) {
        if fields.contains(.dx) {
            line.literal(#","dx":"#)
            line.hundredths(value.x)
        }
        if fields.contains(.dy) {
            line.literal(#","dy":"#)
            line.hundredths(value.y)
        }
    }
}
