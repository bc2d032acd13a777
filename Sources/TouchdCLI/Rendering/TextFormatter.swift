import TouchCore
import TouchPosix
import TouchScene

/// Human-readable lines in the manner of `libinput debug-events`:
/// `replay  TOUCH_DOWN    +1.234s  slot 0 finger 3   512.00/ 300.50  (raw 890/576)`.
public enum TextFormatter {
    public static func line(for mapped: MappedFingerEvent, device: String, start: EventTime) -> String {
        let event = mapped.event
        let name: String
        switch event.phase {
        case .down: name = "TOUCH_DOWN"
        case .move: name = "TOUCH_MOTION"
        case .up: name = "TOUCH_UP"
        case .cancel: name = "TOUCH_CANCEL"
        }
        var text = pad(device, 8) + pad(name, 14) + offset(event.time, from: start)
        text += "  slot " + pad(String(event.slot), 3) + "finger " + pad(String(event.finger.rawValue), 5)
        text += leftPad(fixed(mapped.position.x), 9) + "/" + leftPad(fixed(mapped.position.y), 9)
        text += "  (raw \(event.contact.x)/\(event.contact.y))"
        if let pressure = event.contact.pressure { text += " pressure \(pressure)" }
        if let tool = event.contact.toolType, tool != ToolType.finger { text += " tool \(ToolType.name(tool))" }
        return text
    }

    public static func frameLine(time: EventTime, device: String, start: EventTime) -> String {
        pad(device, 8) + pad("TOUCH_FRAME", 14) + offset(time, from: start)
    }

    /// `+1.234s` from the start of the recording.
    public static func offset(_ time: EventTime, from start: EventTime) -> String {
        let millis = (time - start).microseconds / 1000
        let sign = millis < 0 ? "-" : "+"
        let magnitude = millis.magnitude
        let fraction = String(magnitude % 1000)
        return sign + String(magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
            + "s"
    }

    /// Two decimals, deterministic.
    public static func fixed(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 9.0e16 else { return String(value) }
        let hundredths = Int64((value * 100).rounded(.toNearestOrAwayFromZero))
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let fraction = String(magnitude % 100)
        return sign + String(magnitude / 100) + "." + (fraction.count < 2 ? "0" : "") + fraction
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

extension TextFormatter {
    /// One line per dispatched event, for people. Region ids, device names and gesture names are the scene's and
    /// the device's: each is escaped (`ControlEscaping`), so that the line draws only itself on a terminal. A
    /// gesture's name is upper-cased first and escaped after, so upper-casing cannot turn one escape sequence into
    /// another (`ESC[5m` into `ESC[5M`).
    public static func line(for event: DispatchEvent, start: EventTime) -> String? {
        let shown = ControlEscaping.escaped
        switch event {
        case .touch(let touch):
            let name: String
            switch touch.phase {
            case .down: name = "TOUCH_DOWN"
            case .move: name = "TOUCH_MOTION"
            case .up: name = "TOUCH_UP"
            case .cancel: name = "TOUCH_CANCEL"
            }
            var text = pad(shown(touch.device), 8) + pad(name, 14) + offset(touch.time, from: start)
            text += "  finger " + pad(String(touch.finger.rawValue), 4) + pad(touch.region.map(shown) ?? "-", 14)
            text += leftPad(fixed(touch.location.x), 9) + "/" + leftPad(fixed(touch.location.y), 9)
            text += "  local " + fixed(touch.local.x) + "/" + fixed(touch.local.y)
            if touch.tapCount > 1 { text += "  taps \(touch.tapCount)" }
            return text
        case .gesture(let region, let gesture):
            var text = pad("gesture", 8) + pad(shown(gesture.name.uppercased()), 14) + offset(gesture.time, from: start)
            text += "  " + pad(gesture.event.rawValue, 10) + pad(shown(region.string), 14)
            text += leftPad(fixed(gesture.location.x), 9) + "/" + leftPad(fixed(gesture.location.y), 9)
            switch gesture.kind {
            case .tap: text += "  taps \(gesture.taps) fingers \(gesture.fingers)"
            case .drag, .longPressDrag:
                text += "  moved " + fixed(gesture.translation.x) + "/" + fixed(gesture.translation.y)
            case .swipe: text += "  " + (gesture.direction?.rawValue ?? "")
            case .pinch, .rotate: text += "  scale " + fixed(gesture.scale) + " rotation " + fixed(gesture.rotation)
            case .longPress: break
            }
            return text
        case .regionMoved(let region, let frame, let time):
            return pad("scene", 8) + pad("REGION_MOVED", 14) + offset(time, from: start) + "  " + shown(region.string)
                + " to "
                + fixed(frame.x) + "/" + fixed(frame.y)
        case .regionScrolled(let region, let offset, let time):
            return pad("scene", 8) + pad("REGION_SCROLLED", 14) + self.offset(time, from: start) + "  "
                + shown(region.string) + " offset " + fixed(offset.x) + "/" + fixed(offset.y)
        case .frame:
            return nil
        }
    }
}
