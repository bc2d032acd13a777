/// syslog priorities, as journald reads them from a `<N>` prefix on each stderr line.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    case emergency = 0, alert, critical, error, warning, notice, info, debug

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public init?(name: String) {
        switch name.lowercased() {
        case "emerg", "emergency": self = .emergency
        case "alert": self = .alert
        case "crit", "critical": self = .critical
        case "err", "error": self = .error
        case "warning", "warn": self = .warning
        case "notice": self = .notice
        case "info": self = .info
        case "debug": self = .debug
        default: return nil
        }
    }
}

/// Where log lines go. The production handler writes to stderr; tests collect lines in memory.
public protocol LogHandler: Sendable {
    func write(_ line: String)
}

/// A value-type logger: a threshold, a prefix style and a handler.
public struct Logger: Sendable {
    public enum Style: Sendable {
        /// `<3>message`: journald ranks the line by the prefix and strips it.
        case journald
        /// `touchd: error: message`, for a person at a terminal.
        case plain
    }

    public var threshold: LogLevel
    public var style: Style
    public var handler: any LogHandler
    /// The name before each plain line.
    public var program: String

    public init(
        threshold: LogLevel = .info, style: Style = .plain, handler: any LogHandler, program: String = "touchd"
    ) {
        self.threshold = threshold
        self.style = style
        self.handler = handler
        self.program = program
    }

    /// Writes one line. The whole message is escaped here (`ControlEscaping`), whoever built it and from whatever
    /// foreign strings: a region id holding `\n<0>` cannot start a line of its own, which journald would read as
    /// an emergency and broadcast to every terminal.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= threshold else { return }
        let text = ControlEscaping.escaped(message())
        switch style {
        case .journald:
            handler.write("<\(level.rawValue)>" + text)
        case .plain:
            handler.write("\(program): \(Self.label(level)): " + text)
        }
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

    static func label(_ level: LogLevel) -> String {
        switch level {
        case .emergency: "emergency"
        case .alert: "alert"
        case .critical: "critical"
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }
}
