import FoundationEssentials
import Glibc
import TouchCore
import TouchPosix

/// The DRM connectors under /sys/class/drm: `card<N>-<connector>` directories, each with `status` ("connected",
/// "disconnected", "unknown") and `edid` (empty while nothing is connected). Reading only: what they mean is
/// TouchCore's (`EDID`, `OutputChooser`).
public enum DRMConnectors {
    public static let defaultRoot = "/sys/class/drm"

    /// Every connector of every card, sorted by name; an EDID that cannot be parsed is left out of its connector
    /// and reported in `problems`.
    public static func read(root: String = defaultRoot) -> (connectors: [DisplayConnector], problems: [String]) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: root) else { return ([], []) }
        var connectors: [DisplayConnector] = []
        var problems: [String] = []
        for entry in entries.sorted() {
            guard let name = connectorName(entry) else { continue }
            let directory = root + "/" + entry
            guard let status = try? FileReader.readRegularFile(directory + "/status", limit: 64) else { continue }
            var connector = DisplayConnector(
                name: name, connected: String(decoding: status, as: UTF8.self).hasPrefix("connected"))
            do throws(FileReader.Failure) {
                let bytes = try FileReader.readRegularFile(directory + "/edid", limit: 1 << 16)
                if !bytes.isEmpty {
                    do {
                        connector.edid = try EDID(bytes: bytes)
                    } catch {
                        problems.append("\(directory)/edid: \(error)")
                    }
                }
            } catch {
                // No edid file is a connector without one; anything else there is worth a word.
                if error.reason != .cannotOpen(errno: ENOENT) { problems.append("\(directory)/edid: \(error.message)") }
            }
            connectors.append(connector)
        }
        return (connectors, problems)
    }

    /// `card0-HDMI-A-1` → `HDMI-A-1`; `card0`, `renderD128`, `version`: nil.
    static func connectorName(_ entry: String) -> String? {
        guard entry.hasPrefix("card"), let dash = entry.firstIndex(of: "-") else { return nil }
        let number = entry[entry.index(entry.startIndex, offsetBy: 4)..<dash]
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else { return nil }
        let name = entry[entry.index(after: dash)...]
        return name.isEmpty ? nil : String(name)
    }
}
