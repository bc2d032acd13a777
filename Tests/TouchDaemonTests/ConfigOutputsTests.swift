import Testing
import TouchCore
import TouchDaemon

@Suite("Configuration: mapTo, output and outputs")
struct ConfigOutputsTests {
    func parse(_ json: String) throws(ConfigError) -> Config {
        try ConfigLoader.parse(Array(json.utf8), file: "c.json")
    }

    let left = MappingRegion(x: 0, y: 0, width: 1920, height: 1080)
    let right = MappingRegion(x: 1920, y: 0, width: 1920, height: 1080)

    @Test("two panels under one 3840x1080 scene: by rectangle, or by the outputs' names")
    func twoPanels() throws {
        let byRegion = try parse(
            """
            {"devices": [
              {"match": {"name": "left panel"}, "mapTo": [0, 0, 1920, 1080]},
              {"match": {"name": "right panel"}, "mapTo": [1920, 0, 1920, 1080]}]}
            """)
        #expect(byRegion.rules(name: "left panel", node: "", vendor: 0, product: 0).target == .region(left))
        #expect(byRegion.rules(name: "right panel", node: "", vendor: 0, product: 0).target == .region(right))
        #expect(byRegion.rules(name: "other", node: "", vendor: 0, product: 0).target == nil)
        let byName = try parse(
            """
            {"outputs": {"HDMI-A-1": [0, 0, 1920, 1080], "DP-2": [1920, 0, 1920, 1080]},
             "devices": [{"mapTo": [0, 0, 10, 10]}, {"match": {"vendor": "0eef"}, "output": "DP-2"},
                         {"match": {"vendor": "04f3"}, "output": "auto"}]}
            """)
        #expect(byName.outputs == ["HDMI-A-1": left, "DP-2": right])
        #expect(byName.rules(name: "", node: "", vendor: 0x0eef, product: 0).target == .output("DP-2"))
        #expect(byName.rules(name: "", node: "", vendor: 0x04f3, product: 0).target == .automatic)
        #expect(byName.rules(name: "", node: "", vendor: 1, product: 0).target == .region(.init([0, 0, 10, 10])!))
    }

    @Test(
        "mistakes name file, line and path",
        arguments: [
            (#"{"devices": [{"mapTo": [0, 0, 100]}]}"#, "c.json:1: devices[0].mapTo: expected [x, y, width, height]"),
            (#"{"devices": [{"mapTo": [0, 0, -1, 5]}]}"#, "c.json:1: devices[0].mapTo: expected [x, y, width, height]"),
            (
                "{\"outputs\": {\"DP-1\": [0, 0, 10, 10]},\n \"devices\": [{\"output\": \"DP-2\"}]}",
                #"c.json:2: devices[0].output: no output "DP-2" in outputs (known: DP-1); or "auto""#
            ),
            (
                #"{"devices": [{"output": "DP-2"}]}"#,
                #"c.json:1: devices[0].output: no output "DP-2" in outputs (there are none)"#
            ),
            (
                #"{"devices": [{"output": "auto", "mapTo": [0, 0, 1, 1]}]}"#,
                "c.json:1: devices[0].output: give either mapTo or output"
            ),
            ("{\"outputs\": {\n\"DP-1\": [0, 0, 10]}}", "c.json:2: outputs.DP-1: expected [x, y, width, height]"),
            (#"{"outputs": [0, 0, 10, 10]}"#, "c.json:1: outputs: expected an object"),
            (#"{"outputs": {"auto": [0, 0, 10, 10]}}"#, #"c.json:1: outputs.auto: "auto" cannot name an output"#),
            (#"{"devices": [{"mapto": [0, 0, 10, 10]}]}"#, "c.json:1: devices[0].mapto: unknown key 'mapto'"),
        ])
    func mistakes(json: String, message: String) throws {
        let error = try #require(throws: ConfigError.self) { try parse(json) }
        #expect(error.description.hasPrefix(message), "\(error)")
    }

    let connectors = [
        DisplayConnector(
            name: "eDP-1", connected: true, edid: EDID(manufacturer: "BOE", product: 1, widthMM: 302, heightMM: 188)),
        DisplayConnector(
            name: "DP-2", connected: true, edid: EDID(manufacturer: "DEL", product: 2, widthMM: 527, heightMM: 296)),
        DisplayConnector(name: "HDMI-A-1", connected: false),
    ]

    @Test("output auto: the chosen monitor's rectangle; none: the whole scene, marked undecided")
    func automatic() {
        let outputs = ["eDP-1": left, "DP-2": right]
        let dell = TouchscreenFacts(name: "eGalax", widthMM: 527, heightMM: 296, builtIn: false)
        let onDell = OutputAssignment.resolve(.automatic, outputs: outputs, connectors: connectors, touchscreen: dell)
        #expect(onDell.region == right && !onDell.undecided)
        #expect(onDell.explanation.hasPrefix("output DP-2 at 1920,0,1920,1080 (auto: its size 527x296 mm matches"))
        let unknown = TouchscreenFacts(name: "x", widthMM: nil, heightMM: nil, builtIn: false)
        let whole = OutputAssignment.resolve(.automatic, outputs: outputs, connectors: connectors, touchscreen: unknown)
        #expect(whole.region == nil && whole.undecided)
        // Only the monitors in `outputs` are candidates: with just DP-2 there, it is the only one.
        let only = OutputAssignment.resolve(
            .automatic, outputs: ["DP-2": right], connectors: connectors, touchscreen: unknown)
        #expect(only.region == right && only.explanation.contains("the only connected monitor"))
        let named = OutputAssignment.resolve(
            .output("eDP-1"), outputs: outputs, connectors: connectors, touchscreen: unknown)
        #expect(named.region == left && named.explanation == "output eDP-1 at 0,0,1920,1080")
    }
}
