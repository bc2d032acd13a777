import Testing
import TouchScene

/// Issue 14 part 3: scene mistakes that used to pass (or were reported vaguely) are errors with file:line:path.
@Suite("Scene validation")
struct SceneValidationTests {
    static func refusal(_ json: String) throws -> SceneError {
        try #require(throws: SceneError.self) { try SceneLoader.parse(json, file: "scene.json") }
    }

    @Test(
        "a touchable area that leaves nothing touchable is refused",
        arguments: [
            #"{"inset": 50}"#, #"{"inset": 60}"#, #"{"insets": {"left": 70, "right": 30}}"#,
            #"{"insets": {"top": 40, "bottom": 80}}"#, #"{"rect": [10, 10, 0, 20]}"#,
        ])
    func emptyTouchable(touchable: String) throws {
        // A 100×120 frame: an inset of 50 leaves a 0×20 area, 60 a negative one.
        let json = """
            {"size": [400, 400], "regions": [
              {"id": "ok", "frame": [0, 0, 100, 120], "touchable": {"inset": 49}},
              {"id": "empty", "frame": [200, 0, 100, 120],
               "touchable": \(touchable)}]}
            """
        let error = try Self.refusal(json)
        #expect(error.line == 4)
        #expect(error.path == "regions[1].touchable")
        #expect(error.message.hasPrefix("leaves nothing touchable"))
    }

    @Test(
        "a parameter of another gesture type is refused, naming the ones the type takes",
        arguments: [
            ("tap", "minimumDistance", "5", "taps, fingers, durationMs, allowableMovement, tapIntervalMs"),
            ("drag", "taps", "2", "fingers, minimumDistance"),
            ("drag", "allowableMovement", "5", "fingers, minimumDistance"),
            ("long-press", "directions", #"["left"]"#, "fingers, durationMs, allowableMovement"),
            ("swipe", "tapIntervalMs", "200", "fingers, minimumDistance, durationMs, directions"),
            ("rotate", "allowableMovement", "3", "fingers"),
            ("pinch", "durationMs", "100", "fingers, allowableMovement"),
        ] as [(String, String, String, String)])
    func foreignParameter(type: String, key: String, value: String, takes: String) throws {
        let json = """
            {"size": [400, 400], "regions": [
              {"id": "r", "frame": [0, 0, 100, 100], "gestures": ["tap",
                {"type": "\(type)", "name": "g",
                 "\(key)": \(value)}]}]}
            """
        let error = try Self.refusal(json)
        #expect(error.line == 4)
        #expect(error.path == "regions[0].gestures[1].\(key)")
        #expect(error.message == "'\(key)' is not a parameter of \(type) (it takes: \(takes))")
    }

    @Test("a negative allowableMovement is refused (it used to be clamped to 0)", arguments: ["tap", "long-press"])
    func negativeAllowableMovement(type: String) throws {
        let json = """
            {"size": [400, 400], "regions": [{"id": "r", "frame": [0, 0, 100, 100], "gestures": [
              {"type": "\(type)", "allowableMovement": -1}]}]}
            """
        let error = try Self.refusal(json)
        #expect(error.line == 2)
        #expect(error.path == "regions[0].gestures[0].allowableMovement")
        #expect(error.message == "must not be negative, found -1")
    }

    @Test(
        "a trailing comma is named as such",
        arguments: [
            ("{\"size\": [100, 100],\n \"regions\": [],\n}", 3, 1, "'}'"),
            ("{\"size\": [100, 100,\n ], \"regions\": []}", 2, 2, "']'"),
            (
                "{\"size\": [100, 100], \"regions\": [\n {\"id\": \"a\", \"frame\": [0, 0, 1, 1],\t\r\n\n}]}", 4, 1,
                "'}'"
            ),
        ] as [(String, Int, Int, String)])
    func trailingComma(json: String, line: Int, column: Int, closer: String) throws {
        let error = try Self.refusal(json)
        #expect(error.line == line)
        #expect(
            error.message
                == "JSON syntax: trailing comma before \(closer) (JSON allows no comma after the last member) "
                + "(column \(column))")
    }

    @Test("other syntax errors keep the parser's words")
    func otherSyntaxErrors() throws {
        #expect(try Self.refusal("{\"size\": [100 100]}").message.hasPrefix("JSON syntax: expected"))
        #expect(try Self.refusal("{\"size\": [100, ]").message.contains("trailing comma"))
        #expect(try Self.refusal("[,]").message == "JSON syntax: unexpected character ',', expected a value (column 2)")
        #expect(!(try Self.refusal("{\"a\": }").message.contains("trailing comma")))
    }

    @Test("the touchable areas and parameters that are fine still load")
    func stillValid() throws {
        let scene = try SceneLoader.parse(
            """
            {"size": [400, 400], "regions": [
              {"id": "a", "frame": [0, 0, 100, 100], "touchable": {"inset": 49.5},
               "gestures": [{"type": "tap", "allowableMovement": 0}, {"type": "pinch", "allowableMovement": 20},
                            {"type": "swipe", "minimumDistance": 0, "durationMs": 300}]},
              {"id": "line", "frame": [0, 200, 0, 100], "touchable": {"outset": 8}}]}
            """, file: "ok.json")
        #expect(scene.regions[0].gestures[0].allowableMovement == 0)
        #expect(scene.regions[0].gestures[1].allowableMovement == 20)
    }

    @Test(
        "relations name gestures that exist",
        arguments: [
            (
                #"{"type": "tap", "requireToFail": ["nope"]}"#, "regions[0].gestures[1].requireToFail",
                "'nope': region 'a' has no gesture 'nope' (has: drag, tap)"
            ),
            (
                #"{"type": "tap", "requireToFail": ["b/tap"]}"#, "regions[0].gestures[1].requireToFail",
                "'b/tap': no region 'b'"
            ),
            (
                #"{"type": "tap", "requireToFail": ["c/drag"]}"#, "regions[0].gestures[1].requireToFail",
                "'c/drag': region 'c' has no gesture 'drag' (has: swipe)"
            ),
            (
                #"{"type": "tap", "requireToFail": ["tap"]}"#, "regions[0].gestures[1].requireToFail",
                "a gesture cannot wait for itself"
            ),
            (
                #"{"type": "tap", "requireToFail": [3]}"#, "regions[0].gestures[1].requireToFail",
                "expected gesture names: \"name\" on this region or \"regionId/name\""
            ),
            (
                #"{"type": "tap", "priority": "urgent"}"#, "regions[0].gestures[1].priority",
                "expected \"high\" or \"normal\", found 'urgent'"
            ),
            (
                #"{"type": "pinch", "takeFingers": "always"}"#, "regions[0].gestures[1].takeFingers",
                "expected \"recognized\", \"all-down\" or \"never\", found 'always'"
            ),
        ] as [(String, String, String)])
    func badReferences(gesture: String, path: String, message: String) throws {
        let json = """
            {"size": [400, 400], "regions": [
              {"id": "a", "frame": [0, 0, 100, 100], "gestures": ["drag",
                \(gesture)]},
              {"id": "c", "frame": [200, 0, 100, 100], "gestures": ["swipe"]}]}
            """
        let error = try Self.refusal(json)
        #expect(error.line == 3)
        #expect(error.path == path)
        #expect(error.message == message)
    }

    @Test(
        "sequences name two or more distinct gestures of the region, each in one sequence",
        arguments: [
            (#"[["tap"]]"#, "expected an array of two or more gesture names"),
            (#"[["tap", "nope"]]"#, "'nope' names no gesture of this region (has: drag, long-press, tap)"),
            (#"[["tap", 3]]"#, "'number' names no gesture of this region (has: drag, long-press, tap)"),
            (#"[["tap", "drag"], ["long-press", "drag"]]"#, "'drag' is already in a sequence"),
            (#"[["tap", "tap"]]"#, "'tap' is already in a sequence"),
        ] as [(String, String)])
    func badSequences(sequenced: String, message: String) throws {
        let json = """
            {"size": [400, 400], "regions": [{"id": "a", "frame": [0, 0, 100, 100],
              "gestures": ["tap", "drag", "long-press"],
              "sequenced": \(sequenced)}]}
            """
        let error = try Self.refusal(json)
        #expect(error.line == 3)
        #expect(error.path.hasPrefix("regions[0].sequenced["))
        #expect(error.message == message)
    }

    @Test("relations survive the scene's JSON form (the socket's get-scene and edits)")
    func relationsRoundTrip() throws {
        let scene = try SceneLoader.parse(
            #"""
            {"size": [400, 400], "regions": [
              {"id": "card", "frame": [0, 0, 400, 400], "gestures": [{"type": "swipe", "priority": "high"}],
               "children": [{"id": "b", "frame": [0, 0, 10, 10], "gestures": ["long-press",
                 {"type": "drag", "requireToFail": ["card/swipe", "long-press"]}], "sequenced": [["long-press", "drag"]]}]}]}
            """#, file: "r.json")
        let again = try SceneLoader.parse(SceneEncoder.encode(scene), file: "encoded.json")
        #expect(again == scene)
        #expect(again.regions[0].gestures[0].highPriority)
        #expect(again.regions[0].children[0].gestures[1].requireToFail == ["card/swipe", "long-press"])
        #expect(again.regions[0].children[0].sequenced == [["long-press", "drag"]])
    }

    @Test("takeFingers survives the scene's JSON form, both values")
    func takeFingersRoundTrip() throws {
        let scene = try SceneLoader.parse(
            #"""
            {"size": [400, 400], "regions": [{"id": "kiosk", "frame": [0, 0, 400, 400], "forward": true,
              "gestures": [{"type": "pinch", "takeFingers": "recognized"},
                           {"type": "swipe", "fingers": 3, "takeFingers": "all-down"}, "tap"]}]}
            """#, file: "k.json")
        let again = try SceneLoader.parse(SceneEncoder.encode(scene), file: "encoded.json")
        #expect(again == scene)
        #expect(again.regions[0].gestures.map(\.takesFingers) == [.recognized, .allDown, .never])
    }
}

/// A gesture waiting for itself through others would hold every one of them back for good.
@Suite("Scene validation: circles of waits")
struct WaitCycleTests {
    static func refusal(_ json: String) throws -> SceneError {
        try #require(throws: SceneError.self) { try SceneLoader.parse(json, file: "scene.json") }
    }

    @Test("two gestures that require each other to fail are refused")
    func mutual() throws {
        let error = try Self.refusal(
            """
            {"size": [400, 400], "regions": [{"id": "a", "frame": [0, 0, 100, 100], "gestures": [
              {"type": "drag", "requireToFail": ["long-press"]},
              {"type": "long-press", "requireToFail": ["drag"]}]}]}
            """)
        #expect(error.line == 2)
        #expect(error.path == "regions[0].gestures[0].requireToFail")
        #expect(
            error.message == "gestures wait for each other in a circle: a/drag waits for a/long-press waits for a/drag")
    }

    @Test("a high-priority parent gesture that requires its child's gesture to fail is refused")
    func throughPriority() throws {
        let error = try Self.refusal(
            """
            {"size": [400, 400], "regions": [{"id": "card", "frame": [0, 0, 100, 100],
              "gestures": [{"type": "swipe", "priority": "high", "requireToFail": ["button/tap"]}],
              "children": [{"id": "button", "frame": [0, 0, 10, 10], "gestures": ["tap"]}]}]}
            """)
        #expect(
            error.message
                == "gestures wait for each other in a circle: button/tap waits for card/swipe waits for button/tap")
        #expect(error.path == "regions[0].children[0].gestures[0]")
        #expect(error.line == 3)
    }

    @Test("a double tap that requires the single tap to fail closes a circle with the built-in wait")
    func throughTheTapRule() throws {
        let error = try Self.refusal(
            """
            {"size": [400, 400], "regions": [{"id": "a", "frame": [0, 0, 100, 100], "gestures": ["tap",
              {"type": "tap", "name": "double", "taps": 2, "requireToFail": ["tap"]}]}]}
            """)
        #expect(
            error.message == "gestures wait for each other in a circle: a/double waits for a/tap waits for a/double")
    }

    @Test("a long chain of waits without a circle loads, and closing it is found")
    func longChain() throws {
        let count = 3000
        func regions(closing: Bool) -> String {
            (0..<count).map { index in
                let next = index + 1 < count ? "r\(index + 1)/tap" : (closing ? "r0/tap" : nil)
                let wait = next.map { #", "requireToFail": [""# + $0 + #""]"# } ?? ""
                return #"{"id": "r\#(index)", "frame": [0, 0, 1, 1], "gestures": [{"type": "tap"\#(wait)}]}"#
            }.joined(separator: ",\n")
        }
        _ = try SceneLoader.parse(
            #"{"size": [10, 10], "regions": ["# + regions(closing: false) + "]}", file: "chain.json")
        let error = try Self.refusal(#"{"size": [10, 10], "regions": ["# + regions(closing: true) + "]}")
        #expect(error.message.hasPrefix("gestures wait for each other in a circle: r0/tap waits for r1/tap"))
    }

    @Test("an edit that removes a region a relation names is refused, and the scene stays as it was")
    func editRemovingANamedRegion() throws {
        let scene = try SceneLoader.parse(
            #"""
            {"size": [400, 400], "regions": [
              {"id": "card", "frame": [0, 0, 400, 400], "gestures": [{"type": "tap", "name": "double", "taps": 2}]},
              {"id": "button", "frame": [0, 0, 10, 10], "gestures": [{"type": "tap", "requireToFail": ["card/double"]}]}]}
            """#, file: "edit.json")
        let error = try #require(throws: SceneEditor.EditError.self) {
            try SceneEditor.removeRegion("card", from: SceneIndex(scene: scene))
        }
        #expect(
            error.description
                == "region 'button' gesture 'tap' waits for 'card/double' (requireToFail): change that region first")
        #expect(try SceneEditor.removeRegion("button", from: SceneIndex(scene: scene)).regions.map(\.id) == ["card"])
    }
}

@Suite("Gesture limits")
struct GestureLimitTests {
    static func taps(_ count: Int, requireToFail references: Int = 0) -> String {
        let names = (0..<count).map { #"{"type": "tap", "name": "t\#($0)"}"# }
        let waits = (0..<references).map { _ in #""r/t0""# }.joined(separator: ", ")
        let waiter = #"{"type": "drag", "name": "w", "requireToFail": [\#(waits)]}"#
        return """
            {"size": [100, 100], "regions": [{"id": "r", "frame": [0, 0, 100, 100],
              "gestures": [\(names.joined(separator: ",\n")),
                \(waiter)]}]}
            """
    }

    @Test("a region takes 256 gestures; one more is refused with its line and path")
    func gesturesPerRegion() throws {
        #expect(
            try SceneLoader.parse(Self.taps(SceneLoader.maximumGesturesPerRegion - 1), file: "s.json")
                .regions[0].gestures.count == 256)
        let error = try #require(throws: SceneError.self) {
            try SceneLoader.parse(Self.taps(SceneLoader.maximumGesturesPerRegion), file: "s.json")
        }
        // Gesture k is on line k + 2 (the first shares line 2 with the region's gestures key): the 257th is on 258.
        #expect(error.file == "s.json")
        #expect(error.line == 258)
        #expect(error.path == "regions[0].gestures[256]")
        #expect(error.message == "one gesture more than touchd's limit of 256 on a region")
    }

    @Test("a gesture waits for at most 256 others; one more reference is refused with its path")
    func referencesPerGesture() throws {
        _ = try SceneLoader.parse(Self.taps(1, requireToFail: 256), file: "s.json")
        let error = try #require(throws: SceneError.self) {
            try SceneLoader.parse(Self.taps(1, requireToFail: 257), file: "s.json")
        }
        #expect(error.line == 3)
        #expect(error.path == "regions[0].gestures[1].requireToFail[256]")
        #expect(error.message == "one reference more than touchd's limit of 256 in a gesture")
    }
}
