/// Which monitor a touchscreen lies on, from what the kernel says of both (`"output": "auto"`).
///
/// In order, among the connected connectors given:
/// 1. the one whose physical size equals the touchscreen's within 5 % in both directions (either way round: a
///    controller may report the panel's axes swapped); several: the one whose EDID monitor name appears in the
///    touchscreen's name; still several: undecided, go on;
/// 2. for a built-in touchscreen, the one built-in panel (eDP, DSI, LVDS);
/// 3. the only connected one;
/// 4. none: the caller maps to the whole scene and warns.
/// This is mutter's order (meta-input-mapper.c) without its EDID vendor guesses, which need a table of vendor names.
public enum OutputChooser {
    public static let sizeTolerance = 0.05

    public struct Choice: Equatable, Sendable {
        public enum Rule: String, Equatable, Sendable {
            case size, builtIn = "built-in", onlyConnected = "only connected", none
        }
        /// The connector's name; nil for none.
        public var connector: String?
        public var rule: Rule
        /// Why, in words, for logs and `list-devices`.
        public var explanation: String
    }

    public static func choose(for touchscreen: TouchscreenFacts, among connectors: [DisplayConnector]) -> Choice {
        let connected = connectors.filter(\.connected)
        var notes: [String] = []
        if let width = touchscreen.widthMM, let height = touchscreen.heightMM {
            var matching = connected.filter { sizeMatches(width, height, $0.edid) }
            if matching.count > 1 {
                let named = matching.filter { connector in
                    guard let name = connector.edid?.name else { return false }
                    return touchscreen.name.lowercased().contains(name.lowercased())
                }
                if !named.isEmpty { matching = named }
            }
            let size = "\(millimetres(width))x\(millimetres(height)) mm"
            if matching.count == 1, let match = matching.first, let edid = match.edid {
                return Choice(
                    connector: match.name, rule: .size,
                    explanation:
                        "its size \(size) matches \(match.name)'s \(edid.widthMM ?? 0)x\(edid.heightMM ?? 0) mm (\(monitor(edid)))"
                )
            }
            notes.append(
                matching.isEmpty
                    ? "no monitor is \(size) within 5 %"
                    : "\(matching.map(\.name).joined(separator: ", ")) are all \(size)")
        } else {
            notes.append("the touchscreen states no size")
        }
        let builtIn = connected.filter(\.isBuiltIn)
        if touchscreen.builtIn, builtIn.count == 1, let panel = builtIn.first {
            return Choice(
                connector: panel.name, rule: .builtIn,
                explanation:
                    "a built-in touchscreen on the built-in panel \(panel.name) (\(notes.joined(separator: "; ")))")
        }
        if connected.count == 1, let only = connected.first {
            return Choice(
                connector: only.name, rule: .onlyConnected,
                explanation: "the only connected monitor (\(notes.joined(separator: "; ")))")
        }
        notes.append(connected.isEmpty ? "no monitor is connected" : "\(connected.count) monitors are connected")
        return Choice(connector: nil, rule: .none, explanation: notes.joined(separator: "; "))
    }

    static func sizeMatches(_ width: Double, _ height: Double, _ edid: EDID?) -> Bool {
        guard let edid, let monitorWidth = edid.widthMM, let monitorHeight = edid.heightMM else { return false }
        func close(_ a: Double, _ b: Int) -> Bool { abs(a - Double(b)) <= sizeTolerance * Double(b) }
        return (close(width, monitorWidth) && close(height, monitorHeight))
            || (close(width, monitorHeight) && close(height, monitorWidth))
    }

    static func millimetres(_ value: Double) -> String { String(Int((value).rounded())) }

    static func monitor(_ edid: EDID) -> String {
        "\(edid.manufacturer) \(String(edid.product, radix: 16))"
            + (edid.name.map { " \"\($0)\"" } ?? "")
    }
}
