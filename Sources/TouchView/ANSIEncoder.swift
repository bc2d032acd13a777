/// Turns a `Screen` into the bytes that draw it on a terminal.
///
/// Every row is written whole, after an absolute cursor move, so a frame never depends on what the terminal showed
/// before (a resize, or a line another program scribbled). Styles are SGR sequences, written only where they change;
/// without colour (NO_COLOR, a dumb terminal) none is written at all, and the picture is the characters alone.
public enum ANSIEncoder {
    /// Region colours, in palette order (the SVG's hues, as the 8 basic terminal colours give them): blue, red,
    /// green, magenta, yellow, cyan. Slots beyond wrap around.
    public static let regionColours = [34, 31, 32, 35, 33, 36]
    /// Bright black (grey): fingers that hit no region, as the SVG draws them grey.
    public static let neutralColour = 90

    public static let enterAlternateScreen = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    public static let leaveAlternateScreen = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// - Parameters:
    ///   - colour: write SGR styles (colour, bold, reverse).
    ///   - clear: clear the screen first (after a resize: the terminal may have reflowed the old frame).
    public static func encode(_ screen: Screen, colour: Bool, clear: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(screen.rows * (screen.columns + 16))
        if clear { out += Array("\u{1B}[0m\u{1B}[2J".utf8) }
        for row in 0..<screen.rows {
            out += Array("\u{1B}[\(row + 1);1H".utf8)
            var current = Screen.Style.plain
            for column in 0..<screen.columns {
                let cell = screen[row, column]
                if colour && cell.style != current {
                    out += sgr(cell.style)
                    current = cell.style
                }
                out.append(cell.character)
            }
            if colour && current != .plain { out += sgr(.plain) }
        }
        return out
    }

    /// One SGR sequence that resets, then sets the style: "ESC[0;1;34m".
    static func sgr(_ style: Screen.Style) -> [UInt8] {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.reverse { codes.append("7") }
        switch style.colour {
        case .region(let slot)?: codes.append(String(regionColours[slot % regionColours.count]))
        case .neutral?: codes.append(String(neutralColour))
        case nil: break
        }
        return Array("\u{1B}[\(codes.joined(separator: ";"))m".utf8)
    }

    /// Whether to colour: not when NO_COLOR is set to anything non-empty (no-color.org), nor on a dumb or unknown
    /// terminal.
    public static func usesColour(environment: (String) -> String?) -> Bool {
        if let noColour = environment("NO_COLOR"), !noColour.isEmpty { return false }
        guard let term = environment("TERM"), !term.isEmpty, term != "dumb" else { return false }
        return true
    }
}
