import TouchClient
import TouchCore
import TouchDaemon
import TouchJSON

extension ListDevicesCommand {
    /// `stuck touches:` for a touchscreen: the rules that apply (`StuckTouchPolicy`) and where they come from, and the
    /// touches the running touchd has cancelled on the device (`cancelled`, from its `devices` reply), when it
    /// answers.
    static func stuckTouchesLine(_ rule: Config.DeviceRule, cancelled: Int?) -> String {
        let policy = rule.stuckTouchPolicy
        func limit(_ duration: EventTime.Duration?) -> String {
            guard let duration else { return "off" }
            return NumberText.text(Double(duration.microseconds) / 1_000_000) + " s"
        }
        let configured = rule.stuckSilentSeconds != nil || rule.stuckMotionlessSeconds != nil
        var text = "  stuck touches: silent \(limit(policy.silentLimit)) while other touches report, motionless "
        text += "\(limit(policy.motionlessLimit)) (\(configured ? "configuration" : "default"))"
        if let cancelled { text += "; \(cancelled) cancelled by the running touchd" }
        return text + "\n"
    }

    /// Each device node's stuck-touch count from the touchd listening on `socketPath`; empty when none answers (not
    /// running, or the socket is not ours to open).
    static func stuckCancelsFromDaemon(socketPath: String) -> [String: Int] {
        guard let client = try? TouchClient(path: socketPath, timeoutMilliseconds: 2_000),
            let reply = try? client.request(op: "devices"), reply.ok,
            case .array(let devices, _)? = reply.json["devices"]
        else { return [:] }
        var counts: [String: Int] = [:]
        for device in devices {
            guard case .string(let node, _)? = device["node"], case .number(let count, _)? = device["stuck_cancels"]
            else { continue }
            counts[node] = Int(count)
        }
        return counts
    }
}
