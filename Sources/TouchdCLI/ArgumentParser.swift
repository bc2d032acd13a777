/// A small hand-written option parser: options are data (`OptionSpec`), parsing is one loop, errors say which
/// argument was wrong. Accepts `--name value`, `--name=value`, short aliases (`-o FILE`) and `--` to end options.
public struct OptionSpec: Sendable {
    public var name: String
    public var short: Character?
    public var takesValue: Bool
    public var valueName: String
    public var help: String

    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, takesValue: false, valueName: "", help: help)
    }

    public static func value(_ name: String, short: Character? = nil, _ valueName: String, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, takesValue: true, valueName: valueName, help: help)
    }
}

public enum ArgumentError: Error, Equatable, CustomStringConvertible {
    case unknownOption(String)
    case missingValue(String)
    case unexpectedArgument(String)
    case missingArgument(String)
    case invalidValue(option: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .unknownOption(let option): "unknown option '\(option)'"
        case .missingValue(let option): "option '--\(option)' needs a value"
        case .unexpectedArgument(let argument): "unexpected argument '\(argument)'"
        case .missingArgument(let name): "missing argument \(name)"
        case .invalidValue(let option, let value, let expected): "--\(option) '\(value)': expected \(expected)"
        }
    }
}

public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    public var values: [String: String] = [:]
    public var flags: Set<String> = []

    public func has(_ flag: String) -> Bool { flags.contains(flag) }
    public subscript(option: String) -> String? { values[option] }

    /// An option's value converted by `parse`, or nil when absent; a value that does not convert is an error.
    public func value<T>(_ option: String, expected: String, _ parse: (String) -> T?) throws(ArgumentError) -> T? {
        guard let text = values[option] else { return nil }
        guard let value = parse(text) else { throw .invalidValue(option: option, value: text, expected: expected) }
        return value
    }

    /// The value of an option that must be one of `choices`.
    public func choice(_ option: String, _ choices: [String], default fallback: String) throws(ArgumentError) -> String
    {
        guard let text = values[option] else { return fallback }
        guard choices.contains(text) else {
            throw .invalidValue(option: option, value: text, expected: "one of " + choices.joined(separator: ", "))
        }
        return text
    }
}

public struct ArgumentParser: Sendable {
    public var options: [OptionSpec]

    public init(_ options: [OptionSpec]) {
        self.options = options + [.flag("help", short: "h", help: "show this help")]
    }

    public func parse(_ arguments: [String]) throws(ArgumentError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name: String
            var inlineValue: String?
            let spec: OptionSpec?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                spec = options.first { $0.name == name }
            } else {
                guard argument.count == 2 else { throw .unknownOption(argument) }
                spec = options.first { $0.short == argument.last }
                name = spec?.name ?? argument
            }
            guard let spec else { throw .unknownOption(argument) }
            if spec.takesValue {
                if let inlineValue {
                    result.values[spec.name] = inlineValue
                } else {
                    guard index < arguments.count else { throw .missingValue(spec.name) }
                    result.values[spec.name] = arguments[index]
                    index += 1
                }
            } else {
                guard inlineValue == nil else { throw .unexpectedArgument(argument) }
                result.flags.insert(spec.name)
            }
        }
        return result
    }

    /// The options part of a help text, one line each.
    public var helpText: String {
        options.map { spec in
            var left = "  "
            if let short = spec.short { left += "-\(short), " }
            left += "--" + spec.name
            if spec.takesValue { left += " " + spec.valueName }
            let padding = max(1, 30 - left.count)
            return left + String(repeating: " ", count: padding) + spec.help
        }.joined(separator: "\n")
    }
}
