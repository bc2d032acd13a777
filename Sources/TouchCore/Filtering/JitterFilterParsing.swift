/// Reading a filter from its name and its parameters, for `touchd replay --filter NAME --filter-params LIST` and
/// the configuration's `filter` (which hands the same names and numbers from JSON).
extension JitterFilter {
    /// Parameter names each filter takes.
    public static func parameterNames(for name: String) -> [String] {
        switch name {
        case "fuzz": ["fuzz"]
        case "one-euro": ["minCutoff", "beta", "dCutoff"]
        default: []
        }
    }

    /// A filter named `name` with `parameters` (name → number); unknown names, parameters that do not belong to
    /// the filter, and out-of-range values are errors, saying which.
    public static func make(name: String, parameters: [(name: String, value: Double)]) throws(ParseError)
        -> JitterFilter
    {
        guard names.contains(name) else { throw .unknownFilter(name) }
        let allowed = parameterNames(for: name)
        for parameter in parameters where !allowed.contains(parameter.name) {
            throw .unknownParameter(filter: name, parameter: parameter.name, allowed: allowed)
        }
        func value(_ key: String) -> Double? { parameters.last { $0.name == key }?.value }
        switch name {
        case "fuzz":
            guard let fuzz = value("fuzz") else { return .fuzz(override: nil) }
            guard fuzz >= 0, fuzz <= 1_000_000_000, fuzz.rounded() == fuzz else {
                throw .badValue(
                    parameter: "fuzz", problem: "fuzz must be a whole number of device units from 0 to 1000000000")
            }
            return .fuzz(override: Int32(fuzz))
        case "one-euro":
            let standard = OneEuroParameters.standard
            let parameters = OneEuroParameters(
                minCutoff: value("minCutoff") ?? standard.minCutoff, beta: value("beta") ?? standard.beta,
                derivativeCutoff: value("dCutoff") ?? standard.derivativeCutoff)
            if let problem = parameters.problem {
                throw .badValue(parameter: problem.parameter, problem: problem.message)
            }
            return .oneEuro(parameters)
        default:
            return .off
        }
    }

    /// `--filter-params`: `name=number` pairs separated by commas (`minCutoff=1,beta=0.05`).
    public static func parseParameters(_ text: String) throws(ParseError) -> [(name: String, value: Double)] {
        var result: [(name: String, value: Double)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { String($0).trimmingSpaces } ?? ""
            guard parts.count == 2, !name.isEmpty, let value = Double(String(parts[1]).trimmingSpaces),
                value.isFinite
            else { throw .malformedParameter(String(item)) }
            result.append((name, value))
        }
        return result
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case unknownFilter(String)
        case unknownParameter(filter: String, parameter: String, allowed: [String])
        case malformedParameter(String)
        case badValue(parameter: String, problem: String)

        public var description: String {
            switch self {
            case .unknownFilter(let name):
                "unknown filter '\(name)': expected \(JitterFilter.names.joined(separator: ", "))"
            case .unknownParameter(let filter, let parameter, let allowed):
                "'\(parameter)' is not a parameter of the \(filter) filter"
                    + (allowed.isEmpty ? " (it takes none)" : " (it takes \(allowed.joined(separator: ", ")))")
            case .malformedParameter(let text): "expected name=number, found '\(text)'"
            case .badValue(_, let problem): problem
            }
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
