import Testing
import TouchActions
import TouchGestures

/// The actions file's validation (docs/actions.md): each problem named by file, line, JSON path and message, as
/// scene errors are; a good file read into rules with their defaults.
@Suite("Actions file: validation")
struct ActionsLoaderTests {
    func error(_ text: String) -> String {
        do {
            _ = try ActionsLoader.parse(text, file: "actions.json")
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test("a full file: regions as written, rules with their fields, defaults and limits")
    func goodFile() throws {
        let file = try ActionsLoader.parse(
            """
            {
              "version": 1,
              "regions": [{"id": "left-edge", "frame": [0, 0, 24, 800],
                           "gestures": [{"type": "swipe", "directions": ["right"]}]}],
              "commands": {"maxRunning": 2, "maxQueued": 3, "timeoutMs": 400, "killAfterMs": 100},
              "rules": [
                {"region": "left-edge", "gesture": "swipe", "direction": "right", "fingers": 1,
                 "run": ["notify-send", "swiped"]},
                {"gesture": "pinch", "state": "changed", "shell": true, "run": "echo $TOUCHD_SCALE", "timeoutMs": 0},
                {"gesture": "drag", "state": "changed", "debounceMs": 250, "run": ["true"]},
                {"gesture": "tap", "name": "double-tap", "taps": 2, "run": ["true"]}
              ]
            }
            """, file: "actions.json")
        #expect(file.regions.map(\.id) == ["left-edge"])
        #expect(file.regions.first?.json["frame"]?.numbers == [0, 0, 24, 800])
        #expect(file.limits.maximumRunning == 2)
        #expect(file.limits.maximumQueued == 3)
        #expect(file.limits.killAfterMilliseconds == 100)
        let rules = file.rules
        #expect(rules.count == 4)
        #expect(rules[0].region == "left-edge")
        #expect(rules[0].kind == .swipe)
        #expect(rules[0].state == .ended)  // the default
        #expect(rules[0].direction == .right)
        #expect(rules[0].fingers == 1)
        #expect(rules[0].command == .argv(["notify-send", "swiped"]))
        #expect(rules[0].timeoutMilliseconds == 400)  // the file's default
        #expect(rules[0].line == 7)
        #expect(rules[1].command.arguments == ["/bin/sh", "-c", "echo $TOUCHD_SCALE"])
        #expect(rules[1].timeoutMilliseconds == 0)
        #expect(rules[1].repeatMilliseconds == ActionsLoader.defaultRepeatMilliseconds)  // changed, no rule of its own
        #expect(rules[2].debounceMilliseconds == 250)
        #expect(rules[2].repeatMilliseconds == nil)
        #expect(rules[3].name == "double-tap")
        #expect(rules[3].taps == 2)
        #expect(rules[3].label == "rules[3] (double-tap ended)")
        #expect(rules[0].label == "rules[0] (swipe ended on left-edge)")
    }

    @Test(
        "each problem is refused with its file, line and JSON path",
        arguments: [
            // Syntax.
            ("{\n\"rules\": [\n}", "actions.json:3: (document): JSON syntax: "),
            // Unknown keys, at the top, in a rule, in the limits.
            (
                #"{"rules": [{"gesture": "tap", "run": ["true"]}], "rule": []}"#,
                "actions.json:1: rule: unknown key 'rule'"
            ),
            (
                "{\"rules\": [\n  {\"gesture\": \"tap\", \"run\": [\"true\"],\n   \"direktion\": \"up\"}]}",
                "actions.json:3: rules[0].direktion: unknown key 'direktion'"
            ),
            (
                #"{"commands": {"maxRuning": 2}, "rules": [{"gesture": "tap", "run": ["true"]}]}"#,
                "actions.json:1: commands.maxRuning: unknown key 'maxRuning'"
            ),
            // Wrong types.
            (
                "{\"rules\": [{\"gesture\": \"tap\",\n \"run\": \"notify-send hi\"}]}",
                "actions.json:2: rules[0].run: expected the program and its arguments as an array of strings, found string (or set \"shell\": true to run a line through /bin/sh)"
            ),
            (
                #"{"rules": [{"gesture": "tap", "shell": true, "run": ["echo", "hi"]}]}"#,
                "actions.json:1: rules[0].run: with \"shell\": true, expected one string for /bin/sh -c, found array"
            ),
            (
                "{\"rules\": [{\"gesture\": \"tap\", \"run\": [\"echo\",\n 3]}]}",
                "actions.json:2: rules[0].run[1]: expected a string, found number"
            ),
            (
                #"{"rules": [{"gesture": "tap", "fingers": "two", "run": ["true"]}]}"#,
                "actions.json:1: rules[0].fingers: expected a number, found string"
            ),
            (#"{"rules": {"gesture": "tap"}}"#, "actions.json:1: rules: expected an array, found object"),
            (#"{"rules": ["tap"]}"#, "actions.json:1: rules[0]: expected an object, found string"),
            // Unknown gesture types, states, directions.
            (
                "{\"rules\": [\n{\"gesture\": \"swip\", \"run\": [\"true\"]}]}",
                "actions.json:2: rules[0].gesture: unknown gesture 'swip'; expected tap, long-press, drag, long-press-drag, swipe, pinch, rotate"
            ),
            (
                #"{"rules": [{"gesture": "drag", "state": "moved", "run": ["true"]}]}"#,
                "actions.json:1: rules[0].state: unknown state 'moved'; expected pressing, began, changed, ended, failed or cancelled"
            ),
            (
                #"{"rules": [{"gesture": "swipe", "state": "changed", "run": ["true"]}]}"#,
                "actions.json:1: rules[0].state: a swipe never reports 'changed'; it reports ended"
            ),
            (
                #"{"rules": [{"gesture": "swipe", "direction": "north", "run": ["true"]}]}"#,
                "actions.json:1: rules[0].direction: unknown direction 'north'; expected left, right, up or down"
            ),
            (
                #"{"rules": [{"gesture": "tap", "direction": "up", "run": ["true"]}]}"#,
                "actions.json:1: rules[0].direction: only a swipe has a direction"
            ),
            (
                #"{"rules": [{"gesture": "swipe", "taps": 2, "run": ["true"]}]}"#,
                "actions.json:1: rules[0].taps: only a tap counts taps"
            ),
            // Empty commands.
            (
                "{\"rules\": [{\"gesture\": \"tap\",\n\"run\": []}]}",
                "actions.json:2: rules[0].run: must not be empty: give the program to run"
            ),
            (
                #"{"rules": [{"gesture": "tap", "run": ["", "x"]}]}"#,
                "actions.json:1: rules[0].run[0]: the program must not be empty"
            ),
            (
                #"{"rules": [{"gesture": "tap", "shell": true, "run": "  "}]}"#,
                "actions.json:1: rules[0].run: must not be empty"
            ),
            (#"{"rules": [{"gesture": "tap"}]}"#, "actions.json:1: rules[0]: missing required key 'run'"),
            (#"{"rules": []}"#, "actions.json:1: rules: no rules: give at least one"),
            (#"{"regions": []}"#, "actions.json:1: (document): missing required key 'rules'"),
            // Bad durations.
            (
                #"{"rules": [{"gesture": "tap", "timeoutMs": -5, "run": ["true"]}]}"#,
                "actions.json:1: rules[0].timeoutMs: expected whole milliseconds from 0 to 86400000, found -5.0"
            ),
            (
                #"{"rules": [{"gesture": "tap", "timeoutMs": 1.5, "run": ["true"]}]}"#,
                "actions.json:1: rules[0].timeoutMs: expected whole milliseconds from 0 to 86400000, found 1.5"
            ),
            (
                #"{"rules": [{"gesture": "tap", "timeoutMs": "5s", "run": ["true"]}]}"#,
                "actions.json:1: rules[0].timeoutMs: expected milliseconds as a whole number, found string"
            ),
            (
                #"{"commands": {"killAfterMs": 0}, "rules": [{"gesture": "tap", "run": ["true"]}]}"#,
                "actions.json:1: commands.killAfterMs: expected whole milliseconds from 1 to 60000, found 0.0"
            ),
            (
                #"{"rules": [{"gesture": "drag", "state": "changed", "repeatMs": 1e300, "run": ["true"]}]}"#,
                "actions.json:1: rules[0].repeatMs: expected whole milliseconds from 0 to 3600000, found 1e+300"
            ),
            (
                #"{"rules": [{"gesture": "tap", "repeatMs": 100, "run": ["true"]}]}"#,
                "actions.json:1: rules[0].repeatMs: applies to 'changed' events only (this rule's state is 'ended')"
            ),
            (
                #"{"rules": [{"gesture": "drag", "state": "changed", "repeatMs": 100, "debounceMs": 50, "run": ["true"]}]}"#,
                "actions.json:1: rules[0].debounceMs: give repeatMs or debounceMs, not both"
            ),
            // Regions: checked as scene regions, and a rule on one of them must name a gesture it has.
            (
                "{\"regions\": [\n{\"id\": \"edge\", \"frame\": [0, 0, -1, 10]}],\n\"rules\": [{\"gesture\": \"tap\", \"run\": [\"true\"]}]}",
                "actions.json:2: regions[0].frame: width and height must not be negative"
            ),
            (
                #"{"regions": [{"id": "a", "frame": [0,0,1,1]}, {"id": "a", "frame": [0,0,1,1]}], "rules": [{"gesture": "tap", "run": ["true"]}]}"#,
                "actions.json:1: regions[1].id: duplicate id 'a' (first at regions[0])"
            ),
            (
                "{\"regions\": [{\"id\": \"edge\", \"frame\": [0, 0, 10, 10], \"gestures\": [\"tap\"]}],\n\"rules\": [{\"region\": \"edge\",\n\"gesture\": \"swipe\", \"run\": [\"true\"]}]}",
                "actions.json:3: rules[0].gesture: region 'edge' of this file has no swipe gesture (its gestures: tap)"
            ),
            (
                #"{"version": 2, "rules": [{"gesture": "tap", "run": ["true"]}]}"#,
                "actions.json:1: version: actions file version 2 is not supported; this touchd-actions reads version 1"
            ),
        ])
    func refused(text: String, expected: String) {
        let message = error(text)
        #expect(message.hasPrefix(expected), "\(message)")
    }

    @Test("a rule on a region the file does not define is taken as one of the scene file's")
    func sceneRegion() throws {
        let file = try ActionsLoader.parse(
            #"{"rules": [{"region": "from-the-scene", "gesture": "long-press", "state": "began", "run": ["true"]}]}"#,
            file: "a.json")
        #expect(file.rules.first?.region == "from-the-scene")
        #expect(file.rules.first?.state == .began)
    }
}
