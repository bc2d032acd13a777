import TouchCore

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
        let millis = (time.microseconds - start.microseconds) / 1000
        let sign = millis < 0 ? "-" : "+"
        let magnitude = millis.magnitude
        let fraction = String(magnitude % 1000)
        return sign + String(magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
            + "s"
    }

    /// Two decimals, deterministic.
    public static func fixed(_ value: Double) -> String {
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
