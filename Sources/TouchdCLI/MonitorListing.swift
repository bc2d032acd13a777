import TouchCore
import TouchPosix

/// `touchd list-devices`' monitors: each DRM connector, whether connected, what its EDID says, and its rectangle
/// of the scene when the configuration's `outputs` gives one.
enum MonitorListing {
    static func describe(
        _ connectors: [DisplayConnector], problems: [String], outputs: [String: MappingRegion]
    ) -> String {
        var text = connectors.isEmpty ? "monitors: none found under /sys/class/drm\n" : "monitors:\n"
        for connector in connectors {
            text +=
                "  \(ControlEscaping.escaped(connector.name)): \(connector.connected ? "connected" : "not connected")"
            if let edid = connector.edid {
                text += ", EDID \(ControlEscaping.escaped(edid.manufacturer)) \(ListDevicesCommand.hex(edid.product))"
                if let name = edid.name { text += " \"\(ControlEscaping.escaped(name))\"" }
                if let width = edid.widthMM, let height = edid.heightMM { text += ", \(width)x\(height) mm" }
            }
            if let region = outputs[connector.name] { text += ", scene \(region.commaSeparated)" }
            text += "\n"
        }
        for problem in problems { text += "  warning: \(ControlEscaping.escaped(problem))\n" }
        return text + "\n"
    }
}
