import Testing

@testable import TouchView

@Suite("touchctl view: bytes for the terminal, and the frame rate")
struct ANSIEncoderTests {
    @Test("with colour: a style is set where it changes and reset at the end of the row")
    func colour() {
        var screen = Screen(rows: 1, columns: 4)
        screen.put(UInt8(ascii: "@"), row: 0, column: 1, style: Screen.Style(colour: .region(1), bold: true))
        screen.put(UInt8(ascii: "@"), row: 0, column: 2, style: Screen.Style(colour: .neutral, bold: true))
        let text = String(decoding: ANSIEncoder.encode(screen, colour: true), as: UTF8.self)
        #expect(text == "\u{1B}[1;1H \u{1B}[0;1;31m@\u{1B}[0;1;90m@\u{1B}[0m ")
        let plain = String(decoding: ANSIEncoder.encode(screen, colour: false, clear: true), as: UTF8.self)
        #expect(plain == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H @@ ")
        // Region slots beyond the palette wrap around.
        #expect(ANSIEncoder.sgr(Screen.Style(colour: .region(6))) == Array("\u{1B}[0;34m".utf8))
    }

    @Test("no colour under NO_COLOR, on a dumb terminal, or without TERM")
    func colourChoice() {
        func uses(_ environment: [String: String]) -> Bool {
            ANSIEncoder.usesColour(environment: { environment[$0] })
        }
        #expect(uses(["TERM": "xterm-256color"]))
        #expect(uses(["TERM": "screen", "NO_COLOR": ""]))  // empty: not set (no-color.org)
        #expect(!uses(["TERM": "xterm-256color", "NO_COLOR": "1"]))
        #expect(!uses(["TERM": "dumb"]))
        #expect(!uses([:]))
    }

    @Test("at most one frame every 1/30 s, and none when nothing changed")
    func throttle() {
        var throttle = RedrawThrottle()
        #expect(throttle.interval == 33_333)
        #expect(throttle.nextDraw(version: 1, now: 5_000) == 5_000)  // first frame: at once
        throttle.drew(version: 1, at: 5_000)
        #expect(throttle.nextDraw(version: 1, now: 6_000) == nil)  // nothing new
        #expect(throttle.nextDraw(version: 2, now: 6_000) == 38_333)  // too soon: wait for the frame's time
        #expect(throttle.nextDraw(version: 9, now: 38_333) == 38_333)
        #expect(throttle.nextDraw(version: 9, now: 90_000) == 90_000)
        throttle.drew(version: 9, at: 90_000)
        throttle.invalidate()  // a resize: a frame is due though nothing changed, at the frame rate
        #expect(throttle.nextDraw(version: 9, now: 90_001) == 123_333)
        #expect(throttle.nextDraw(version: 9, now: 200_000) == 200_000)
    }
}
