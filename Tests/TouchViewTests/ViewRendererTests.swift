import Testing
import TouchClient
import TouchCore
import TouchJSON
import TouchScene

@testable import TouchView

/// Messages as the daemon writes them (docs/protocol.md), decoded by the client library.
func message(_ line: String) throws -> Message { Message.decode(try JSONParser.parse(line)) }

func touch(_ phase: String, finger: Int, x: Double, y: Double, region: String?) throws -> Message {
    let regionJSON = region.map { "\"\($0)\"" } ?? "null"
    return try message(
        """
        {"type":"\(phase)","device":"event5","finger":\(finger),"slot":0,"time_us":1000,"region":\(regionJSON),"x":\(x),"y":\(y)}
        """)
}

/// Two regions splitting a 1280 × 800 scene: `a` the top-left quarter, `b` the bottom-right one.
func quarters() throws -> ViewState {
    var state = ViewState()
    state.setScene(
        try SceneLoader.parse(
            """
            {"size": [1280, 800], "regions": [
              {"id": "a", "frame": [0, 0, 640, 400]}, {"id": "b", "frame": [640, 400, 640, 400]}]}
            """, file: "quarters.json"))
    return state
}

@Suite("touchctl view: the picture, cell by cell")
struct ViewRendererTests {
    // 80 × 24: 5 gesture rows (min(5, (24 - 6) / 3)), 18 scene rows (24 - 1 - 5) on rows 1...18.
    @Test("layout of an 80 × 24 terminal, and scene points to cells")
    func layout() {
        let layout = ViewRenderer.Layout(rows: 24, columns: 80)
        #expect(layout.gestureRows == 5)
        #expect(layout.sceneRows == 18)
        #expect(layout.column(640, width: 1280) == 40)
        #expect(layout.column(0, width: 1280) == 0)
        #expect(layout.column(1279.9, width: 1280) == 79)
        #expect(layout.column(1280, width: 1280) == 79)  // the right edge itself stays on screen
        #expect(layout.row(400, height: 800) == 10)  // 1 + ⌊400 · 18 / 800⌋
        #expect(layout.row(0, height: 800) == 1)
        #expect(layout.row(799, height: 800) == 18)
        // Small terminals: no gesture rows below 12.
        #expect(ViewRenderer.Layout(rows: 11, columns: 80).gestureRows == 0)
        #expect(ViewRenderer.Layout(rows: 12, columns: 80).gestureRows == 2)
    }

    @Test("regions are outlined where their frames fall, with their ids on the top edge")
    func regions() throws {
        let screen = ViewRenderer.render(try quarters(), rows: 24, columns: 80, title: "t")
        // a: columns 0...39 (⌈640 · 80 / 1280⌉ − 1), rows 1...9 (1 + ⌈400 · 18 / 800⌉ − 1).
        #expect(screen.text(row: 1).hasPrefix("+a-------"))
        #expect(screen[1, 39].character == UInt8(ascii: "+"))
        #expect(screen[9, 0].character == UInt8(ascii: "+"))
        #expect(screen[5, 0].character == UInt8(ascii: "|"))
        #expect(screen[5, 39].character == UInt8(ascii: "|"))
        // b: columns 40...79, rows 10...18.
        #expect(screen[10, 40].character == UInt8(ascii: "+"))
        #expect(screen[10, 41].character == UInt8(ascii: "b"))
        #expect(screen[18, 79].character == UInt8(ascii: "+"))
        #expect(screen[10, 39].character == UInt8(ascii: " "))
        #expect(screen[1, 1].style.colour == .region(0))
        #expect(screen[10, 41].style.colour == .region(1))
        #expect(screen.text(row: 0).hasPrefix("t  scene 1280x800  fingers 0  q quits"))
        #expect(screen.text(row: 19).hasPrefix("no gestures yet"))
    }

    @Test("a finger is an @ in its region's colour where it is, and its region is outlined as touched")
    func fingers() throws {
        var state = try quarters()
        let changed1 = state.apply(try touch("down", finger: 7, x: 640, y: 400, region: "b"))
        #expect(changed1)
        var screen = ViewRenderer.render(state, rows: 24, columns: 80)
        #expect(screen[10, 40].character == ViewRenderer.fingerMark)
        #expect(screen[10, 40].style == Screen.Style(colour: .region(1), bold: true))
        #expect(screen[18, 79].character == UInt8(ascii: "#"))  // b is touched
        #expect(screen[18, 60].character == UInt8(ascii: "="))
        #expect(screen[9, 39].character == UInt8(ascii: "+"))  // a is not
        #expect(screen.text(row: 0).contains("fingers 1"))

        // It moves into a's area: still b's finger (captured at its down), so still b's colour, b still touched.
        state.apply(try touch("move", finger: 7, x: 320, y: 200, region: "b"))
        screen = ViewRenderer.render(state, rows: 24, columns: 80)
        #expect(screen[5, 20].character == ViewRenderer.fingerMark)  // ⌊320 · 80 / 1280⌋, 1 + ⌊200 · 18 / 800⌋
        #expect(screen[5, 20].style.colour == .region(1))
        #expect(screen[10, 40].character == UInt8(ascii: "#"))

        // A finger on no region: neutral.
        state.apply(try touch("down", finger: 8, x: 1000, y: 100, region: nil))
        screen = ViewRenderer.render(state, rows: 24, columns: 80)
        // ⌊1000 · 80 / 1280⌋ = 62, 1 + ⌊100 · 18 / 800⌋ = 3.
        #expect(screen[3, 62].character == ViewRenderer.fingerMark)
        #expect(screen[3, 62].style.colour == .neutral)

        // Lifts: the marks go, b is no longer touched.
        state.apply(try touch("up", finger: 7, x: 320, y: 200, region: "b"))
        state.apply(try touch("cancel", finger: 8, x: 1000, y: 100, region: nil))
        screen = ViewRenderer.render(state, rows: 24, columns: 80)
        #expect(!screen.cells.contains { $0.character == ViewRenderer.fingerMark })
        #expect(screen[18, 79].character == UInt8(ascii: "+"))
        // An up for a finger never seen changes nothing.
        let changed2 = state.apply(try touch("up", finger: 99, x: 0, y: 0, region: nil))
        #expect(!changed2)
    }

    @Test("a resize redraws at the new size: the same point moves to its new cell")
    func resize() throws {
        var state = try quarters()
        state.apply(try touch("down", finger: 1, x: 640, y: 400, region: "b"))
        // 120 × 40: 5 gesture rows, 34 scene rows; column ⌊640 · 120 / 1280⌋ = 60, row 1 + ⌊400 · 34 / 800⌋ = 18.
        let screen = ViewRenderer.render(state, rows: 40, columns: 120)
        #expect(screen[18, 60].character == ViewRenderer.fingerMark)
        #expect(screen[1, 59].character == UInt8(ascii: "+"))  // a's right edge: ⌈640 · 120 / 1280⌉ − 1
        let tiny = ViewRenderer.render(state, rows: 5, columns: 30)
        #expect(tiny.text(row: 0).hasPrefix("terminal too small"))
        #expect(ViewRenderer.render(state, rows: 0, columns: 0).cells.isEmpty)
    }

    @Test("the last gestures, newest at the bottom; a gesture in progress keeps its line")
    func gestures() throws {
        var state = try quarters()
        for phase in ["began", "changed", "changed", "ended"] {
            state.apply(
                try message(
                    """
                    {"type":"gesture","region":"b","gesture":"drag","kind":"drag","state":"\(phase)","time_us":1,"x":700,"y":500,"fingers":1}
                    """))
        }
        state.apply(
            try message(
                #"{"type":"gesture","region":"a","gesture":"tap","kind":"tap","state":"ended","time_us":2,"x":1,"y":1}"#
            ))
        #expect(state.gestures.map(\.state) == ["ended", "ended"])
        let screen = ViewRenderer.render(state, rows: 24, columns: 80)
        #expect(screen.text(row: 19).hasPrefix("b  drag  ended"))
        #expect(screen.text(row: 20).hasPrefix("a  tap  ended"))
        #expect(screen[19, 0].style.colour == .region(1))
        // Two drags at once, in two regions: each keeps its line while the other changes.
        var two = try quarters()
        for (region, phase) in [("a", "began"), ("b", "began"), ("a", "changed"), ("b", "changed"), ("a", "ended")] {
            two.apply(
                try message(
                    """
                    {"type":"gesture","region":"\(region)","gesture":"drag","kind":"drag","state":"\(phase)","time_us":1,"x":1,"y":1}
                    """))
        }
        #expect(two.gestures.map { $0.region + " " + $0.state } == ["a ended", "b changed"])
        // Only the capacity is kept.
        var many = ViewState(gestureCapacity: 3)
        for index in 0..<10 {
            many.apply(
                try message(
                    #"{"type":"gesture","region":"r","gesture":"g\#(index)","kind":"tap","state":"ended","time_us":2,"x":1,"y":1}"#
                ))
        }
        #expect(many.gestures.map(\.name) == ["g7", "g8", "g9"])
    }

    @Test("a dragged region is redrawn where region-moved puts it (parent's coordinates)")
    func regionMoved() throws {
        var state = ViewState()
        state.setScene(
            try SceneLoader.parse(
                """
                {"size": [1280, 800], "regions": [{"id": "slider", "frame": [640, 400, 640, 400], "children": [
                  {"id": "knob", "frame": [0, 0, 64, 40], "draggable": true}]}]}
                """, file: "slider.json"))
        let moved = state.apply(
            try message(#"{"type":"region-moved","region":"knob","time_us":1,"frame":[320,200,64,40]}"#))
        #expect(moved)
        #expect(state.scene?.index["knob"]?.frame == Rect(x: 960, y: 600, width: 64, height: 40))
        let screen = ViewRenderer.render(state, rows: 24, columns: 80)
        #expect(screen[14, 60].character == UInt8(ascii: "+"))  // 960 · 80 / 1280 = 60; 1 + 600 · 18 / 800 = 14.5
        let changed3 = state.apply(
            try message(#"{"type":"region-moved","region":"nope","time_us":1,"frame":[0,0,1,1]}"#))
        #expect(!changed3)
    }

    @Test("hostile input: control characters in ids, huge and non-finite positions, an empty scene")
    func hostile() throws {
        var state = ViewState()
        state.setScene(
            try SceneLoader.parse(
                #"{"size": [1280, 800], "regions": [{"id": "\u001b]0;pwned\u0007x\u00e9", "frame": [0, 0, 1280, 800]}]}"#,
                file: "hostile.json"))
        state.apply(try touch("down", finger: 1, x: 1e300, y: -1e300, region: "nobody"))
        let screen = ViewRenderer.render(state, rows: 24, columns: 80)
        #expect(screen.text(row: 1).hasPrefix("+?]0;pwned?x?-"))
        #expect(screen[1, 79].character == ViewRenderer.fingerMark)  // clamped to the top-right cell
        #expect(screen[1, 79].style.colour == .neutral)  // a region the scene does not have: neutral
        let plain = ANSIEncoder.encode(screen, colour: false)
        // The only escapes are the 24 cursor moves.
        #expect(plain.filter { $0 == 0x1B }.count == 24)
        #expect(!plain.contains(0x07))

        var empty = ViewState()
        empty.setScene(Scene(width: 0, height: 0, regions: []))
        empty.apply(try touch("down", finger: 1, x: 5, y: 5, region: nil))
        #expect(ViewRenderer.render(empty, rows: 24, columns: 80).text(row: 1).hasPrefix("waiting for the scene"))
    }

    @Test("the daemon saying goodbye ends the view with its reason")
    func goodbye() throws {
        var state = try quarters()
        let changed4 = state.apply(try message(#"{"type":"goodbye","code":"shutdown","message":"touchd is stopping"}"#))
        #expect(changed4)
        #expect(state.ended == "touchd says goodbye: shutdown: touchd is stopping")
        let endedAgain = state.end("later")
        #expect(!endedAgain)
        #expect(state.ended == "touchd says goodbye: shutdown: touchd is stopping")
    }
}
