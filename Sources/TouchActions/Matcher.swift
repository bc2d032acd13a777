/// Decides which rules a gesture event fires (pure: no clock, no I/O). Times are the events' own, so the same
/// events always fire the same rules, however late they are read.
///
/// Repeat and debounce, for rules on `changed` events, are kept per rule and gesture (region and name):
///
/// | rule | a `changed` event at time t | the gesture's next event after a pause | `ended`, `cancelled`, `failed` |
/// |---|---|---|---|
/// | `repeatMs` r | fires if none fired yet, or the last fired at or before t − r | — | forgets |
/// | `debounceMs` d | is held (replacing one held before) | fires the held one if it is d or more older | fires the held one |
///
/// `pressing` and `began` start a gesture afresh: what was kept for it is forgotten.
public struct Matcher {
    public let rules: [ActionRule]
    /// Per rule and gesture: when a repeat rule last fired.
    private var lastFired: [RuleGesture: Int64] = [:]
    /// Per rule and gesture: the `changed` event a debounce rule holds.
    private var held: [RuleGesture: GestureReport] = [:]

    private struct RuleGesture: Hashable {
        var rule: Int
        var gesture: String
    }

    /// A rule to run for an event.
    public struct Firing: Equatable, Sendable {
        public var rule: Int
        public var report: GestureReport
    }

    public init(rules: [ActionRule]) { self.rules = rules }

    /// The rules `report` fires, in the order their commands should start: held changes that this event releases
    /// (they happened before it) first, then the rules it matches, in file order.
    public mutating func handle(_ report: GestureReport) -> [Firing] {
        var firings: [Firing] = []
        let isChange = report.state == "changed"
        let startsAfresh = report.state == "began" || report.state == "pressing"
        let ends = ["ended", "cancelled", "failed"].contains(report.state)
        for (index, rule) in rules.enumerated() where rule.state == .changed && isSameGesture(rule, report) {
            let key = RuleGesture(rule: index, gesture: report.gestureKey)
            if startsAfresh {
                lastFired[key] = nil
                held[key] = nil
            } else if let debounce = rule.debounceMilliseconds, let waiting = held[key] {
                if ends || Self.elapsed(from: waiting.time, to: report.time) >= debounce * 1000 {
                    firings.append(Firing(rule: index, report: waiting))
                    held[key] = nil
                }
            }
            if ends { lastFired[key] = nil }
        }
        for (index, rule) in rules.enumerated() where matches(rule, report) {
            guard isChange else {
                firings.append(Firing(rule: index, report: report))
                continue
            }
            let key = RuleGesture(rule: index, gesture: report.gestureKey)
            if rule.debounceMilliseconds != nil {
                held[key] = report
            } else if let last = lastFired[key],
                Self.elapsed(from: last, to: report.time) < (rule.repeatMilliseconds ?? 0) * 1000
            {
                continue
            } else {
                lastFired[key] = report.time
                firings.append(Firing(rule: index, report: report))
            }
        }
        return firings
    }

    /// `later - earlier`, saturating: touchd's times are saturating too, and a device's clock can sit at either end
    /// of Int64 (a difference that overflowed would trap).
    static func elapsed(from earlier: Int64, to later: Int64) -> Int64 {
        let (difference, overflow) = later.subtractingReportingOverflow(earlier)
        guard overflow else { return difference }
        return later > earlier ? .max : .min
    }

    /// Whether the rule is about this gesture at all (its region, kind and name), whatever the state or details.
    func isSameGesture(_ rule: ActionRule, _ report: GestureReport) -> Bool {
        rule.kind.rawValue == report.kind && (rule.region == nil || rule.region == report.region)
            && (rule.name == nil || rule.name == report.name)
    }

    func matches(_ rule: ActionRule, _ report: GestureReport) -> Bool {
        isSameGesture(rule, report) && rule.state.rawValue == report.state
            && (rule.fingers == nil || rule.fingers == report.fingers)
            && (rule.direction == nil || rule.direction?.rawValue == report.direction)
            && (rule.taps == nil || rule.taps == report.taps)
    }
}
