import TouchCore
import TouchGestures
import TouchJSON
import TouchScene

/// Touch and gesture lines for a subscriber that selected their keys (`FieldSelection`): the core keys and the
/// selected ones, in the order of the whole line, each written as the whole line writes it.
extension DispatchEventEncoder {
    public static func encode(_ touch: DispatchedTouch, selecting fields: FieldSelection, into writer: inout JSONWriter)
    {
        guard fields != .all else { return encodeWhole(touch, into: &writer) }
        let strings = touch.deviceID.jsonCount + (touch.regionID?.jsonCount ?? 0)
        writer.writeTemplate(maximum: FingerEventEncoder.lineBound(strings: strings)) { line in
            FingerEventEncoder.typeKey(touch.phase, into: &line)
            if fields.contains(.device) {
                line.literal(#","device":"#)
                line.string(touch.deviceID)
            }
            line.literal(#","finger":"#)
            line.integer(Int64(touch.finger.rawValue))
            line.integer(#","slot":"#, Int64(touch.slot), if: fields.contains(.slot))
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
            line.hundredths(#","x":"#, touch.location.x, if: true)
            line.hundredths(#","y":"#, touch.location.y, if: true)
            line.hundredths(#","local_x":"#, touch.local.x, if: fields.contains(.localX))
            line.hundredths(#","local_y":"#, touch.local.y, if: fields.contains(.localY))
            line.hundredths(#","prev_x":"#, touch.previous.x, if: fields.contains(.previousX))
            line.hundredths(#","prev_y":"#, touch.previous.y, if: fields.contains(.previousY))
            line.hundredths(#","dx":"#, touch.translation.x, if: fields.contains(.dx))
            line.hundredths(#","dy":"#, touch.translation.y, if: fields.contains(.dy))
            line.integer(#","since_down_us":"#, touch.sinceDown.microseconds, if: fields.contains(.sinceDown))
            line.integer(#","taps":"#, Int64(touch.tapCount), if: fields.contains(.taps))
            line.integer(#","raw_x":"#, Int64(touch.contact.x), if: fields.contains(.rawX))
            line.integer(#","raw_y":"#, Int64(touch.contact.y), if: fields.contains(.rawY))
            FingerEventEncoder.templateAttributes(touch.contact, selecting: fields, into: &line)
            line.literal("}\n")
        }
    }

    public static func encode(
        _ gesture: GestureEvent, region: InternedString, selecting fields: FieldSelection, into writer: inout JSONWriter
    ) {
        guard fields != .all else { return encodeWhole(gesture, region: region, into: &writer) }
        let strings = region.jsonCount + gesture.nameID.jsonCount
        writer.writeTemplate(maximum: FingerEventEncoder.lineBound(strings: strings)) { line in
            gestureHead(gesture, region: region, into: &line)
            line.hundredths(#","x":"#, gesture.location.x, if: true)
            line.hundredths(#","y":"#, gesture.location.y, if: true)
            line.literal(#","fingers":"#)
            line.integer(Int64(gesture.fingers))
            // The keys of the gesture's kind, as the whole line has them.
            let moves: Bool
            switch gesture.kind {
            case .drag, .longPressDrag, .longPress, .swipe: moves = true
            case .tap, .pinch, .rotate: moves = false
            }
            let turns = gesture.kind == .pinch || gesture.kind == .rotate
            line.integer(#","taps":"#, Int64(gesture.taps), if: gesture.kind == .tap && fields.contains(.taps))
            line.hundredths(#","dx":"#, gesture.translation.x, if: moves && fields.contains(.dx))
            line.hundredths(#","dy":"#, gesture.translation.y, if: moves && fields.contains(.dy))
            let swipes = gesture.kind == .swipe
            line.hundredths(#","vx":"#, gesture.velocity.x, if: moves && !swipes && fields.contains(.vx))
            line.hundredths(#","vy":"#, gesture.velocity.y, if: moves && !swipes && fields.contains(.vy))
            if swipes, fields.contains(.direction), let direction = gesture.direction {
                line.literal(#","direction":"#)
                line.string(direction.rawValue)
            }
            if turns && fields.contains(.scale) {
                line.literal(#","scale":"#)
                line.double(gesture.scale, decimals: 4)
            }
            if turns && fields.contains(.rotation) {
                line.literal(#","rotation":"#)
                line.double(gesture.rotation, decimals: 2)
            }
            line.literal("}\n")
        }
    }
}

extension TemplateCursor {
    /// A key and its two-decimal number, when `selected`.
    @inline(__always)
    mutating func hundredths(_ key: StaticString, _ value: Double, if selected: Bool) {
        guard selected else { return }
        literal(key)
        hundredths(value)
    }

    /// A key and its integer, when `selected`.
    @inline(__always)
    mutating func integer(_ key: StaticString, _ value: Int64, if selected: Bool) {
        guard selected else { return }
        literal(key)
        integer(value)
    }
}
