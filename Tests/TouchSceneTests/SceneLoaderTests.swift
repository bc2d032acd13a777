import Testing
import TouchCore
import TouchGestures
import TouchJSON
import TouchScene

@Suite("Scene loading and validation")
struct SceneLoaderTests {
    @Test("a full region decodes every field")
    func fullRegion() throws {
        let scene = try SceneLoader.parse(
            """
            {"version": 1, "size": [800, 480], "regions": [
              {"id": "panel", "frame": [10, 20, 300, 200], "shape": {"type": "rounded-rect", "radius": 12},
               "touchable": {"outset": 8}, "z": 2, "alpha": 0.5, "clipsChildren": false, "draggable": true,
               "intercept": {"slop": 12, "delayMs": 150},
               "gestures": ["tap", {"type": "tap", "name": "double", "taps": 2}, {"type": "long-press", "durationMs": 800},
                            {"type": "swipe", "fingers": 2, "directions": ["left", "right"]}, "pinch", "rotate"],
               "simultaneous": [["pinch", "rotate"]],
               "children": [{"id": "knob", "frame": [0, 0, 40, 40], "shape": "circle", "raw": false, "gestures": ["drag"]}]}
            ]}
            """, file: "s.json")
        #expect(scene.width == 800 && scene.height == 480)
        let panel = try #require(scene.regions.first)
        #expect(panel.shape == .roundedRect(radius: 12))
        #expect(panel.touchableArea == .insets(.all(-8)))
        #expect(panel.intercept == InterceptPolicy(slop: 12, delay: .milliseconds(150)))
        #expect(panel.gestures.map(\.name) == ["tap", "double", "long-press", "swipe", "pinch", "rotate"])
        #expect(panel.gestures[1].taps == 2)
        #expect(panel.gestures[2].minimumDuration == .milliseconds(800))
        #expect(panel.gestures[3].directions == [.left, .right] && panel.gestures[3].fingers == 2)
        #expect(panel.simultaneous == [["pinch", "rotate"]])
        #expect(panel.children.first?.shape == .ellipse)
        #expect(panel.children.first?.wantsTouches == true)
    }

    @Test("forward: off by default, read, refused when not a boolean, and written back by the encoder")
    func forward() throws {
        let json = """
            {"size": [100, 100], "regions": [{"id": "watch", "frame": [0, 0, 10, 10], "forward": true},
                                             {"id": "plain", "frame": [20, 0, 10, 10]}]}
            """
        let scene = try SceneLoader.parse(json, file: "s.json")
        #expect(scene.regions.map(\.forward) == [true, false])
        let again = try SceneLoader.parse(String(decoding: SceneEncoder.encode(scene), as: UTF8.self), file: "e.json")
        #expect(again == scene)
        let error = try #require(throws: SceneError.self) {
            try SceneLoader.parse(
                #"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, 1, 1], "forward": "yes"}]}"#,
                file: "s.json")
        }
        #expect(error.path == "regions[0].forward")
    }

    @Test(
        "each kind of bad scene names file, line, JSON path and problem",
        arguments: [
            (
                #"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, 1, 1]},\#n{"id": "a", "frame": [0, 0, 1, 1]}]}"#,
                2, "regions[1].id", "duplicate id 'a' (first at regions[0])"
            ),
            (
                #"{"size": [100, 100], "regions": [{"id": "a",\#n "frame": [0, 0, -5, 1]}]}"#,
                2, "regions[0].frame", "width and height must not be negative"
            ),
            (
                #"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, 1, 1], "shape": "star"}]}"#,
                1, "regions[0].shape", "unknown shape 'star'; expected rect, rounded-rect, circle, ellipse or polygon"
            ),
            (
                #"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, 1, 1], "gestures": ["wave"]}]}"#,
                1, "regions[0].gestures[0]",
                "unknown gesture 'wave'; expected tap, long-press, drag, long-press-drag, swipe, pinch, rotate"
            ),
            (
                #"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, 1, 1], "shape": {"type": "polygon", "points": [[0, 0], [1, 1]]}}]}"#,
                1, "regions[0].shape.points", "a polygon needs at least 3 points, found 2"
            ),
            (#"{"size": [0, 100]}"#, 1, "size", "expected [width, height], both positive"),
            (
                #"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, 1, 1], "clipChildren": false}]}"#,
                1, "regions[0].clipChildren", "unknown key 'clipChildren'"
            ),
            (
                #"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, 1, 1], "alpha": 2}]}"#,
                1, "regions[0].alpha", "must be between 0 and 1, found 2"
            ),
            (
                #"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, 1, 1], "hidden": "yes"}]}"#,
                1, "regions[0].hidden", "expected true or false, found string"
            ),
            (
                #"{"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, 1, 1], "gestures": ["tap"], "simultaneous": [["tap", "drag"]]}]}"#,
                1, "regions[0].simultaneous[0]", "'drag' names no gesture of this region (has: tap)"
            ),
            (
                #"{"size": [100, 100], "regions": [{"frame": [0, 0, 1, 1]}]}"#, 1, "regions[0]",
                "missing required key 'id'"
            ),
            (
                "{\"size\": [100, 100],\n\n \"regions\": [}", 3, "",
                "JSON syntax: unexpected character '}', expected a value (column 14)"
            ),
            (
                #"{"version": 2, "size": [100, 100]}"#, 1, "version",
                "scene version 2 is not supported; this touchd reads version 1"
            ),
        ] as [(String, Int, String, String)])
    func errors(json: String, line: Int, path: String, message: String) throws {
        let error = try #require(throws: SceneError.self) { try SceneLoader.parse(json, file: "bad.json") }
        #expect(error.file == "bad.json")
        #expect(error.line == line)
        #expect(error.path == path)
        #expect(error.message == message)
    }

    /// A region id with a byte that is not UTF-8 used to load as U+FFFD, so a client naming the region as the file
    /// spells it could never match it.
    @Test("a scene whose region id is not valid UTF-8 is refused with its file and line")
    func invalidUTF8() throws {
        let json =
            Array("{\"size\": [100, 100],\n \"regions\": [{\"id\": \"pl".utf8) + [0xE9]
            + Array("\", \"frame\": [0, 0, 10, 10]}]}".utf8)
        let error = try #require(throws: SceneError.self) { try SceneLoader.parse(json, file: "latin1.json") }
        #expect(error.file == "latin1.json" && error.line == 2)
        #expect(error.message.hasPrefix("JSON syntax: a string that is not valid UTF-8"))
    }

    /// A scene of `count` regions, one a line (line 1 holds the size), every 100th with one child: children count.
    static func sceneText(regions count: Int) -> String {
        let lines = (0..<count / 100).map { group in
            let children = #"{"id": "c\#(group)", "frame": [0, 0, 1, 1]}"#
            let plain = (1..<99).map { #"{"id": "r\#(group)-\#($0)", "frame": [\#($0), 0, 1, 1]}"# }
            return ([#"{"id": "p\#(group)", "frame": [0, 0, 5, 5], "children": [\#(children)]}"#] + plain)
                .joined(separator: ",\n")
        }
        return #"{"size": [100, 100], "regions": [\#n"# + lines.joined(separator: ",\n") + "]}"
    }

    @Test("a scene holds at most 10,000 regions, children counted; the one past the limit is named, file and line")
    func regionLimit() throws {
        #expect(SceneLoader.maximumRegions == 10_000)
        let full = try SceneLoader.parse(Self.sceneText(regions: 10_000), file: "full.json")
        #expect(full.regions.count == 9_900)  // and 100 children
        // One more at the end: line 1 is the size, then 9,900 lines of regions (a child shares its parent's line).
        let over = Self.sceneText(regions: 10_000).dropLast(2) + #",\#n{"id": "last", "frame": [0, 0, 1, 1]}]}"#
        let error = try #require(throws: SceneError.self) { try SceneLoader.parse(String(over), file: "over.json") }
        #expect(error.file == "over.json" && error.line == 9_902)
        #expect(error.path == "regions[9900]")
        #expect(error.message == "one region more than touchd's limit of 10000 in a scene")
        // add-region on the full scene is refused the same way, and the scene is as it was.
        let region = try JSONParser.parse(Array(#"{"id": "extra", "frame": [0, 0, 1, 1]}"#.utf8))
        #expect(throws: SceneEditor.EditError.self) {
            try SceneEditor.addRegion(region, parent: "p0", to: SceneIndex(scene: full))
        }
        #expect(full.regions.count == 9_900)
    }
}
