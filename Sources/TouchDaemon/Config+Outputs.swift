import TouchCore
import TouchJSON

/// Where a device's touches land in the scene: a rule's `mapTo` or `output` (docs/configuration.md, "Outputs").
public enum MappingTarget: Equatable, Sendable {
    /// `"mapTo": [x, y, width, height]`, in scene units.
    case region(MappingRegion)
    /// `"output": "HDMI-A-1"`: the rectangle `outputs` gives that connector.
    case output(String)
    /// `"output": "auto"`: the connected monitor the touchscreen lies on (OutputChooser).
    case automatic
}

extension ConfigLoader {
    /// `"outputs": {"HDMI-A-1": [0, 0, 1920, 1080], …}`: each monitor's rectangle of the scene, by connector name.
    static func outputs(_ reader: inout JSONObjectReader) throws(JSONFieldError) -> [String: MappingRegion] {
        guard let value = reader.raw("outputs") else { return [:] }
        guard case .object(let members, _) = value else {
            throw reader.error("outputs", "expected an object of connector names and [x, y, width, height]")
        }
        var outputs: [String: MappingRegion] = [:]
        for (name, rectangle) in members {
            let path = reader.childPath("outputs") + "." + name
            guard name != "auto", !name.isEmpty else {
                throw JSONFieldError(line: rectangle.line, path: path, message: "\"\(name)\" cannot name an output")
            }
            outputs[name] = try region(rectangle, path: path)
        }
        return outputs
    }

    /// A rule's `mapTo` or `output` (one of them), checked against the configuration's `outputs`.
    static func mappingTarget(
        _ fields: inout JSONObjectReader, outputs: [String: MappingRegion]
    ) throws(JSONFieldError) -> MappingTarget? {
        let region = fields.raw("mapTo")
        let output = try fields.string("output")
        if region != nil, output != nil {
            throw fields.error("output", "give either mapTo or output, not both")
        }
        if let region { return .region(try Self.region(region, path: fields.childPath("mapTo"))) }
        guard let output else { return nil }
        if output == "auto" { return .automatic }
        guard outputs[output] != nil else {
            let known = outputs.keys.sorted().joined(separator: ", ")
            throw fields.error(
                "output",
                "no output \"\(output)\" in outputs (\(known.isEmpty ? "there are none" : "known: " + known)); or \"auto\""
            )
        }
        return .output(output)
    }

    static func region(_ value: JSONValue, path: String) throws(JSONFieldError) -> MappingRegion {
        guard let numbers = value.numbers, let region = MappingRegion(numbers) else {
            throw JSONFieldError(
                line: value.line, path: path,
                message: "expected [x, y, width, height] in scene units, with a positive width and height")
        }
        return region
    }
}
