import Testing
import TouchActions
import TouchJSON

/// The matcher on hand-made gesture events: which rules fire, in which order, and what repeat and debounce make
/// of `changed` events, decided from the events' times alone.
@Suite("Actions: matcher")
struct MatcherTests {
    /// A gesture event as touchd sends it; `time` in milliseconds.
    static func event(
        _ kind: String, _ state: String, at time: Int64, region: String = "screen", name: String? = nil,
        fingers: Int = 1, extra: String = ""
    ) -> GestureReport {
        let text = """
            {"type":"gesture","region":"\(region)","gesture":"\(name ?? kind)","kind":"\(kind)","state":"\(state)",\
            "time_us":\(time * 1000),"x":10,"y":20.5,"fingers":\(fingers)\(extra)}
            """
        return GestureReport(try! JSONParser.parse(text))!
    }

    static func rules(_ json: String) -> [ActionRule] {
        try! ActionsLoader.parse(#"{"rules": \#(json)}"#, file: "test.json").rules
    }

    /// The times (ms) of the events that fired, per firing.
    func times(_ firings: [Matcher.Firing]) -> [Int64] { firings.map { $0.report.time / 1000 } }

    @Test("region, kind, name, state, fingers, direction and taps must all match; firings in file order")
    func fields() {
        var matcher = Matcher(
            rules: Self.rules(
                """
                [{"gesture": "swipe", "direction": "right", "run": ["a"]},
                 {"region": "edge", "gesture": "swipe", "run": ["b"]},
                 {"gesture": "swipe", "fingers": 2, "run": ["c"]},
                 {"gesture": "tap", "taps": 2, "run": ["d"]},
                 {"gesture": "tap", "name": "double", "run": ["e"]},
                 {"gesture": "long-press", "state": "began", "run": ["f"]}]
                """))
        let right = Self.event("swipe", "ended", at: 1, region: "edge", extra: #","direction":"right""#)
        #expect(matcher.handle(right).map(\.rule) == [0, 1])
        let left = Self.event("swipe", "ended", at: 2, fingers: 2, extra: #","direction":"left""#)
        #expect(matcher.handle(left).map(\.rule) == [2])
        #expect(matcher.handle(Self.event("tap", "ended", at: 3, extra: #","taps":1"#)).isEmpty)
        #expect(matcher.handle(Self.event("tap", "ended", at: 4, extra: #","taps":2"#)).map(\.rule) == [3])
        #expect(
            matcher.handle(Self.event("tap", "ended", at: 5, name: "double", extra: #","taps":2"#)).map(\.rule) == [
                3, 4,
            ])
        #expect(matcher.handle(Self.event("long-press", "pressing", at: 6)).isEmpty)
        #expect(matcher.handle(Self.event("long-press", "began", at: 7)).map(\.rule) == [5])
        #expect(matcher.handle(Self.event("long-press", "ended", at: 8)).isEmpty)
    }

    @Test("the environment: every detail of the event as TOUCHD_ variables, whole numbers without a fraction")
    func environment() {
        let report = Self.event(
            "pinch", "changed", at: 1500, fingers: 2, extra: #","scale":1.4671,"rotation":-3,"dx":0.5"#)
        #expect(
            report.environment.map { "\($0.name)=\($0.value)" } == [
                "TOUCHD_REGION=screen", "TOUCHD_GESTURE=pinch", "TOUCHD_KIND=pinch", "TOUCHD_STATE=changed",
                "TOUCHD_TIME_US=1500000", "TOUCHD_X=10", "TOUCHD_Y=20.5", "TOUCHD_FINGERS=2", "TOUCHD_DX=0.5",
                "TOUCHD_SCALE=1.4671", "TOUCHD_ROTATION=-3",
            ])
        #expect(GestureReport(try! JSONParser.parse(#"{"type":"down","region":"a"}"#)) == nil)
        #expect(GestureReport(try! JSONParser.parse(#"{"type":"gesture","region":null}"#)) == nil)
    }

    /// repeatMs 100: changes at 0, 30, 60, 100, 130, 250, 260 ms fire at 0, 100, 250 (each at least 100 ms after
    /// the last that fired). A new gesture (began) starts afresh: its first change fires at once.
    @Test("repeatMs: the first change fires, then at most one per interval of event time; began starts afresh")
    func repeatRule() {
        var matcher = Matcher(
            rules: Self.rules(#"[{"gesture": "drag", "state": "changed", "repeatMs": 100, "run": ["x"]}]"#))
        #expect(matcher.handle(Self.event("drag", "began", at: 0)).isEmpty)
        var fired: [Matcher.Firing] = []
        for time: Int64 in [0, 30, 60, 100, 130, 250, 260] {
            fired += matcher.handle(Self.event("drag", "changed", at: time))
        }
        #expect(times(fired) == [0, 100, 250])
        #expect(matcher.handle(Self.event("drag", "ended", at: 270)).isEmpty)
        #expect(matcher.handle(Self.event("drag", "began", at: 280)).isEmpty)
        #expect(times(matcher.handle(Self.event("drag", "changed", at: 290))) == [290])
    }

    @Test("repeatMs is kept per gesture: two regions' drags do not hold each other back")
    func repeatPerGesture() {
        var matcher = Matcher(
            rules: Self.rules(#"[{"gesture": "drag", "state": "changed", "repeatMs": 100, "run": ["x"]}]"#))
        let fired =
            matcher.handle(Self.event("drag", "changed", at: 0, region: "a"))
            + matcher.handle(Self.event("drag", "changed", at: 10, region: "b"))
            + matcher.handle(Self.event("drag", "changed", at: 20, region: "a"))
        #expect(fired.map(\.report.region) == ["a", "b"])
    }

    @Test("repeatMs 0 fires every change; an omitted one on a changed rule is 100 ms")
    func repeatZeroAndDefault() {
        var every = Matcher(
            rules: Self.rules(#"[{"gesture": "pinch", "state": "changed", "repeatMs": 0, "run": ["x"]}]"#))
        var byDefault = Matcher(rules: Self.rules(#"[{"gesture": "pinch", "state": "changed", "run": ["x"]}]"#))
        var all: [Matcher.Firing] = []
        var limited: [Matcher.Firing] = []
        for time: Int64 in [0, 1, 2, 99, 100] {
            all += every.handle(Self.event("pinch", "changed", at: time, fingers: 2))
            limited += byDefault.handle(Self.event("pinch", "changed", at: time, fingers: 2))
        }
        #expect(times(all) == [0, 1, 2, 99, 100])
        #expect(times(limited) == [0, 100])
    }

    /// debounceMs 200: changes at 0, 50, 100 (a burst), a pause, 400, 450, then the end at 500. The change at 400
    /// is 300 ms after 100: it releases 100 (the burst's last). The end releases 450. Each fires with its own
    /// event's details, before the event that released it.
    @Test("debounceMs: a burst's last change fires once the next event shows the pause, or at the gesture's end")
    func debounceRule() {
        var matcher = Matcher(
            rules: Self.rules(
                """
                [{"gesture": "drag", "state": "changed", "debounceMs": 200, "run": ["x"]},
                 {"gesture": "drag", "state": "ended", "run": ["y"]}]
                """))
        var fired: [Matcher.Firing] = []
        fired += matcher.handle(Self.event("drag", "began", at: 0))
        for time: Int64 in [0, 50, 100] { fired += matcher.handle(Self.event("drag", "changed", at: time)) }
        #expect(fired.isEmpty)
        fired += matcher.handle(Self.event("drag", "changed", at: 400))
        #expect(times(fired) == [100])
        fired += matcher.handle(Self.event("drag", "changed", at: 450))
        #expect(times(fired) == [100])
        let end = matcher.handle(Self.event("drag", "ended", at: 500))
        #expect(end.map(\.rule) == [0, 1])
        #expect(times(end) == [450, 500])
        #expect(end.first?.report.state == "changed")
    }

    @Test("debounceMs: a pause of exactly the interval releases; a cancelled gesture releases its held change too")
    func debounceEdges() {
        var matcher = Matcher(
            rules: Self.rules(#"[{"gesture": "pinch", "state": "changed", "debounceMs": 200, "run": ["x"]}]"#))
        _ = matcher.handle(Self.event("pinch", "changed", at: 0, fingers: 2))
        #expect(times(matcher.handle(Self.event("pinch", "changed", at: 199, fingers: 2))).isEmpty)
        #expect(times(matcher.handle(Self.event("pinch", "changed", at: 399, fingers: 2))) == [199])
        #expect(times(matcher.handle(Self.event("pinch", "cancelled", at: 400, fingers: 2))) == [399])
        // Nothing is left held: the next gesture's began releases nothing.
        #expect(matcher.handle(Self.event("pinch", "began", at: 500, fingers: 2)).isEmpty)
        #expect(matcher.handle(Self.event("pinch", "ended", at: 600, fingers: 2)).isEmpty)
    }

    @Test("debounceMs: a change held for one gesture is dropped when a new one begins without an end between")
    func debounceNewGesture() {
        var matcher = Matcher(
            rules: Self.rules(#"[{"gesture": "drag", "state": "changed", "debounceMs": 50, "run": ["x"]}]"#))
        _ = matcher.handle(Self.event("drag", "changed", at: 0))
        #expect(matcher.handle(Self.event("drag", "began", at: 1000)).isEmpty)
        #expect(matcher.handle(Self.event("drag", "ended", at: 1100)).isEmpty)
    }

    @Test("times at the ends of Int64 do not trap: the difference saturates")
    func extremeTimes() {
        var matcher = Matcher(
            rules: Self.rules(
                """
                [{"gesture": "drag", "state": "changed", "repeatMs": 100, "run": ["x"]},
                 {"gesture": "pinch", "state": "changed", "debounceMs": 100, "run": ["y"]}]
                """))
        // In ms; as µs, within 2^63 of each other's opposite ends (their difference overflows Int64).
        let earliest = Int64.min / 1000 + 1
        let latest = Int64.max / 1000 - 1
        let lateDrag = Self.event("drag", "changed", at: latest)
        #expect(matcher.handle(lateDrag).map(\.report) == [lateDrag])
        #expect(matcher.handle(Self.event("drag", "changed", at: earliest)).isEmpty)  // went back: held back
        let earlyPinch = Self.event("pinch", "changed", at: earliest, fingers: 2)
        #expect(matcher.handle(earlyPinch).isEmpty)
        #expect(matcher.handle(Self.event("pinch", "changed", at: latest, fingers: 2)).map(\.report) == [earlyPinch])
    }
}
