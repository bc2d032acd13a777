import TouchCore

/// The rectangle of the scene a device maps to, decided from its rule and what the kernel says of the monitors,
/// with the reason in words (the log, `touchd list-devices`).
public struct OutputAssignment: Equatable, Sendable {
    /// nil: the whole scene.
    public var region: MappingRegion?
    public var explanation: String
    /// `"output": "auto"` found no monitor to map to: the whole scene, which is worth a warning.
    public var undecided: Bool

    /// With `automatic`, the candidates are the connected connectors named in `outputs` (all connected ones when
    /// `outputs` is empty: the monitor is chosen and reported, and, with no rectangle for it, the whole scene is
    /// its place).
    public static func resolve(
        _ target: MappingTarget?, outputs: [String: MappingRegion], connectors: [DisplayConnector],
        touchscreen: TouchscreenFacts
    ) -> OutputAssignment {
        switch target {
        case nil:
            return OutputAssignment(region: nil, explanation: "the whole scene", undecided: false)
        case .region(let region):
            return OutputAssignment(region: region, explanation: "mapTo \(region.commaSeparated)", undecided: false)
        case .output(let name):
            let region = outputs[name]
            let state = connectors.first { $0.name == name }.map { $0.connected ? "" : ", not connected now" } ?? ""
            return OutputAssignment(
                region: region, explanation: "output \(name) at \(region.map(\.commaSeparated) ?? "?")\(state)",
                undecided: false)
        case .automatic:
            let candidates = outputs.isEmpty ? connectors : connectors.filter { outputs[$0.name] != nil }
            let choice = OutputChooser.choose(for: touchscreen, among: candidates)
            guard let name = choice.connector else {
                return OutputAssignment(
                    region: nil, explanation: "the whole scene: auto found no monitor (\(choice.explanation))",
                    undecided: true)
            }
            guard let region = outputs[name] else {
                return OutputAssignment(
                    region: nil,
                    explanation:
                        "the whole scene: auto chose \(name), \(choice.explanation), and outputs has no rectangle for it",
                    undecided: false)
            }
            return OutputAssignment(
                region: region, explanation: "output \(name) at \(region.commaSeparated) (auto: \(choice.explanation))",
                undecided: false)
        }
    }
}
