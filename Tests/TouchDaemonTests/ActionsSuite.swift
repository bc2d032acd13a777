import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A suite that runs touchd-actions beside a daemon, in a scratch directory of its own: reading the files its
/// commands and its log write, and waiting for them.
protocol ActionsSuite: AnyObject {
    var directory: String { get }
}

extension ActionsSuite {
    /// The lines of the file at `path`; none while it does not exist.
    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits (up to `seconds`) until `condition` holds.
    @discardableResult
    func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() && Date() < deadline { usleep(20_000) }
        return condition()
    }

    /// touchd-actions on `actions` against the daemon at `socket`, logging at debug level into `log`, its standard
    /// output into the directory's actions.out. `environment` (env(1)'s arguments: `NAME=value`,
    /// `--ignore-signal=…`) runs it through env(1) with them.
    func startActions(_ actions: String, socket: String, log: String, environment: [String] = []) throws -> Process {
        let arguments = [DaemonProcess.touchdActions, "--actions", actions, "--socket", socket, "--log-level", "debug"]
        return try DaemonProcess.start(
            environment.isEmpty ? DaemonProcess.touchdActions : "/usr/bin/env",
            environment.isEmpty ? Array(arguments.dropFirst()) : environment + arguments,
            stdout: directory + "/actions.out", stderr: log)
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a suite unless touchd and touchd-actions are both built.
    static var actionsBuilt: Self {
        .enabled(if: DaemonProcess.actionsBuilt, "touchd and touchd-actions must be built first (swift build)")
    }
}
