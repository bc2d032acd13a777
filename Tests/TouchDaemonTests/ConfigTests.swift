import Testing
import TouchCore
import TouchDaemon
import TouchTestKit

@Suite("Configuration")
struct ConfigTests {
    @Test("the shipped config/touchd.json loads and has no device rule: it rotates, pins, grabs and ignores nothing")
    func shippedConfig() throws {
        let config = try ConfigLoader.load(path: SharedRecordings.repositoryRoot + "/config/touchd.json")
        #expect(config.socket.path == "/run/touchd/touchd.sock")
        #expect(config.socket.mode == 0o660)
        #expect(config.clients.sceneGroups == ["touchd-admin"])
        #expect(config.devices.isEmpty)
        let egalax = config.rules(
            name: "eGalax Inc. USB TouchController", node: "/dev/input/event9", vendor: 0x0eef, product: 0x72a1)
        #expect(egalax == Config.DeviceRule())
    }

    @Test("config/touchd.example.json loads, and its device rules merge with the last match winning")
    func exampleConfig() throws {
        let config = try ConfigLoader.load(path: SharedRecordings.repositoryRoot + "/config/touchd.example.json")
        let egalax = config.rules(
            name: "eGalax Inc. USB TouchController", node: "/dev/input/event3", vendor: 0x0eef, product: 0x72a1)
        #expect(egalax.rotation == 90)
        #expect(egalax.use == true && egalax.grab == true)
        #expect(config.rules(name: "other", node: "/dev/input/event9", vendor: 1, product: 2).use == false)
        #expect(config.rules(name: "other", node: "/dev/input/event1", vendor: 1, product: 2) == Config.DeviceRule())
    }

    @Test("a configuration that cannot be read: the file and the system's reason, no line and no JSON path")
    func unreadable() throws {
        let error = try #require(throws: ConfigError.self) {
            try ConfigLoader.load(path: "/nonexistent-touchd-dir/nosuch.json")
        }
        #expect(error.description == "/nonexistent-touchd-dir/nosuch.json: cannot open: No such file or directory")
    }

    @Test("forwardUnclaimed is a device rule's, off unless a matching rule turns it on; the last match wins")
    func forwardUnclaimed() throws {
        let json = """
            {"devices": [{"forwardUnclaimed": true}, {"match": {"name": "pen"}, "forwardUnclaimed": false}]}
            """
        let config = try ConfigLoader.parse(Array(json.utf8), file: "c.json")
        #expect(config.rules(name: "panel", node: "/dev/input/event3", vendor: 1, product: 2).forwardUnclaimed == true)
        #expect(config.rules(name: "pen", node: "/dev/input/event4", vendor: 1, product: 2).forwardUnclaimed == false)
        #expect(Config().rules(name: "panel", node: "/dev/input/event3", vendor: 1, product: 2).forwardUnclaimed == nil)
    }

    @Test("palmSize is a device rule's, off unless a matching rule sets it; the last match wins")
    func palmSize() throws {
        let json = """
            {"devices": [{"palmSize": 30}, {"match": {"name": "big"}, "palmSize": 55.5}]}
            """
        let config = try ConfigLoader.parse(Array(json.utf8), file: "c.json")
        #expect(config.rules(name: "panel", node: "/dev/input/event3", vendor: 1, product: 2).palmSize == 30)
        #expect(config.rules(name: "big", node: "/dev/input/event4", vendor: 1, product: 2).palmSize == 55.5)
        #expect(Config().rules(name: "panel", node: "/dev/input/event3", vendor: 1, product: 2).palmSize == nil)
    }

    @Test("a device rule's filter: a name, or an object with a type and its parameters; the last match wins")
    func filters() throws {
        let json = """
            {"devices": [
              {"filter": "off"},
              {"match": {"name": "N-Trig"}, "filter": {"type": "fuzz", "fuzz": 40}},
              {"match": {"node": "/dev/input/event5"}, "filter": {"type": "one-euro", "beta": 0.02}}
            ]}
            """
        let config = try ConfigLoader.parse(Array(json.utf8), file: "c.json")
        #expect(config.rules(name: "x", node: "/dev/input/event1", vendor: 0, product: 0).filter == .off)
        #expect(
            config.rules(name: "N-Trig", node: "/dev/input/event1", vendor: 0, product: 0).filter == .fuzz(override: 40)
        )
        #expect(
            config.rules(name: "N-Trig", node: "/dev/input/event5", vendor: 0, product: 0).filter
                == .oneEuro(OneEuroParameters(minCutoff: 1, beta: 0.02, derivativeCutoff: 5)))
        let none = try ConfigLoader.parse(Array("{\"devices\": [{\"grab\": true}]}".utf8), file: "c.json")
        #expect(none.rules(name: "x", node: "/dev/input/event1", vendor: 0, product: 0).filter == nil)
    }

    @Test("stuckTouches: silent 5 s and motionless off by default; each limit from the last matching rule; 0 is off")
    func stuckTouches() throws {
        let config = try ConfigLoader.parse(
            Array(
                #"""
                {"devices": [{"stuckTouches": {"motionlessSeconds": 120}},
                             {"match": {"name": "big"}, "stuckTouches": {"silentSeconds": 0, "motionlessSeconds": 2.5}}]}
                """#.utf8), file: "c.json")
        let panel = config.rules(name: "panel", node: "/dev/input/event3", vendor: 1, product: 2).stuckTouchPolicy
        #expect(panel.silentLimit == .milliseconds(5_000))
        #expect(panel.motionlessLimit == .milliseconds(120_000))
        let big = config.rules(name: "big", node: "/dev/input/event4", vendor: 1, product: 2).stuckTouchPolicy
        #expect(big == StuckTouchPolicy(motionlessLimit: .milliseconds(2_500)))
        let defaults = Config().rules(name: "panel", node: "/dev/input/event3", vendor: 1, product: 2)
        #expect(defaults.stuckTouchPolicy == StuckTouchPolicy(silentLimit: .milliseconds(5_000)))
    }

    @Test("an empty object is the default configuration")
    func empty() throws {
        #expect(try ConfigLoader.parse(Array("{}".utf8), file: "c.json") == Config())
    }

    @Test(
        "each kind of bad configuration names file, line, path and problem",
        arguments: [
            ("{\"socket\": {\"mode\": \"0999\"}}", 1, "socket.mode", "expected an octal file mode such as \"0660\""),
            (
                "{\"socket\": {\"path\": \"relative.sock\"}}", 1, "socket.path",
                "expected an absolute path shorter than 108 bytes (sun_path)"
            ),
            ("{\n\"clients\": {\"max\": 0}}", 2, "clients.max", "expected a whole number from 1 to 10000, found 0"),
            ("{\"devices\": [{\"rotate\": 45}]}", 1, "devices[0].rotate", "expected 0, 90, 180 or 270"),
            (
                "{\"devices\": [{\"calibration\": [1, 0, 0]}]}", 1, "devices[0].calibration",
                "expected six numbers [a, b, c, d, e, f]"
            ),
            (
                "{\"devices\": [{\"match\": {\"vendor\": \"xyz\"}}]}", 1, "devices[0].match.vendor",
                "expected a 16-bit hex id such as \"0eef\""
            ),
            ("{\"grab\": \"yes\"}", 1, "grab", "expected true or false, found string"),
            (
                "{\"devices\": [{\n\"forwardUnclaimed\": 1}]}", 2, "devices[0].forwardUnclaimed",
                "expected true or false, found number"
            ),
            ("{\"forwardUnclaimed\": true}", 1, "forwardUnclaimed", "unknown key 'forwardUnclaimed'"),
            ("{\"logLevel\": \"loud\"}", 1, "logLevel", "expected one of err, warning, notice, info, debug"),
            ("{\"sockets\": {}}", 1, "sockets", "unknown key 'sockets'"),
            ("{\"socket\": ", 1, "", "JSON syntax: unexpected end of input, expected a value (column 12)"),
            (
                "{\"devices\": [{\"filter\": \"kalman\"}]}", 1, "devices[0].filter",
                "unknown filter 'kalman': expected off, fuzz, one-euro"
            ),
            (
                "{\"devices\": [\n{\"filter\": {\n\"type\": \"median\"}}]}", 3, "devices[0].filter.type",
                "unknown filter 'median': expected off, fuzz, one-euro"
            ),
            (
                "{\"devices\": [{\"filter\": {\"type\": \"fuzz\",\n \"beta\": 1}}]}", 2, "devices[0].filter.beta",
                "unknown key 'beta' (the fuzz filter takes fuzz)"
            ),
            (
                "{\"devices\": [{\"filter\": {\"type\": \"one-euro\",\n\n \"minCutoff\": 0}}]}", 3,
                "devices[0].filter.minCutoff", "minCutoff must be a positive number of Hz"
            ),
            (
                "{\"devices\": [{\"filter\": {\"type\": \"fuzz\", \"fuzz\": -3}}]}", 1, "devices[0].filter.fuzz",
                "fuzz must be a whole number of device units from 0 to 1000000000"
            ),
            (
                "{\"devices\": [{\"filter\": {\"type\": \"off\", \"x\": 1}}]}", 1, "devices[0].filter.x",
                "unknown key 'x' (the off filter takes no parameters)"
            ),
            (
                "{\"clients\": {\"max\": 2.5}}", 1, "clients.max",
                "expected a whole number from 1 to 10000, found 2.5"
            ),
            (
                "{\"devices\": [{\"filter\": {\"beta\": 1}}]}", 1, "devices[0].filter",
                "missing required key 'type'"
            ),
            ("{\"devices\": [{\"filter\": 3}]}", 1, "devices[0].filter", "expected an object, found number"),
            (
                "{\"devices\": [{\"use\": true,\n \"palmSize\": 0}]}", 2, "devices[0].palmSize",
                "expected a size above 0 (millimetres, or device units on an axis without a resolution), found 0"
            ),
            (
                "{\"devices\": [{\"palmSize\": \"big\"}]}", 1, "devices[0].palmSize",
                "expected a number, found string"
            ),
            (
                "{\"devices\": [{\"stuckTouches\": {\"silentSeconds\": 0.05}}]}", 1,
                "devices[0].stuckTouches.silentSeconds",
                "expected 0 (off) or a number of seconds from 0.1 to 86400, found 0.05"
            ),
            (
                "{\"devices\": [{\"stuckTouches\": {\n\"motionlessSeconds\": -1}}]}", 2,
                "devices[0].stuckTouches.motionlessSeconds",
                "expected 0 (off) or a number of seconds from 0.1 to 86400, found -1"
            ),
            (
                "{\"devices\": [{\"stuckTouches\": {\"motionlessSeconds\": \"1 h\"}}]}", 1,
                "devices[0].stuckTouches.motionlessSeconds", "expected a number, found string"
            ),
            (
                "{\"devices\": [{\"stuckTouches\": {\"silent\": 5}}]}", 1, "devices[0].stuckTouches.silent",
                "unknown key 'silent'"
            ),
            (
                "{\"devices\": [{\n\n\"stuckTouches\": true}]}", 3, "devices[0].stuckTouches",
                "expected an object, found boolean"
            ),
        ] as [(String, Int, String, String)])
    func errors(json: String, line: Int, path: String, message: String) throws {
        let error = try #require(throws: ConfigError.self) {
            try ConfigLoader.parse(Array(json.utf8), file: "touchd.json")
        }
        #expect(error.file == "touchd.json")
        #expect(error.line == line)
        #expect(error.path == path)
        #expect(error.message == message)
    }
}
