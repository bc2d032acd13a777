import TouchCore
import TouchScene

/// Draws a `ViewState` into a `Screen` of a given size: a pure function, so that every cell can be checked.
///
/// Layout, for R rows and C columns:
/// - row 0: a header (scene size, fingers down, how to quit);
/// - rows 1...S: the scene stretched over all C columns and S rows, S = R - 1 - G;
/// - the last G rows (G = min(5, (R - 6) / 3) when R >= 12, else 0): the last gestures, newest at the bottom.
///
/// A scene point (x, y) of a W × H scene falls in column ⌊x·C/W⌋ and row 1 + ⌊y·S/H⌋ (clamped to the area): x = 640
/// of a 1280-wide scene is column 40 of 80. A region is outlined from the cell of its top-left corner to the cell
/// just inside its right and bottom edges (⌈maxX·C/W⌉ − 1), so regions that share an edge do not overdraw each
/// other; its id is written on its top edge. Regions are drawn bottom first, children over parents; hidden ones
/// (or inside hidden ones) are not drawn. A region holding a finger is outlined with `#` corners and `=` edges, in
/// bold. Each finger is an `@` in its region's colour (neutral when it hit none), drawn over everything.
public enum ViewRenderer {
    public static let fingerMark = UInt8(ascii: "@")
    /// Below this size only a message is shown.
    public static let minimumColumns = 20
    public static let minimumRows = 6

    public struct Layout: Equatable, Sendable {
        public var sceneRows: Int
        public var gestureRows: Int
        public var columns: Int

        public init(rows: Int, columns: Int) {
            gestureRows = rows >= 12 ? min(5, (rows - 6) / 3) : 0
            sceneRows = max(0, rows - 1 - gestureRows)
            self.columns = columns
        }

        /// The column of scene x in a scene `width` wide.
        public func column(_ x: Double, width: Double) -> Int {
            clamp((x * Double(columns) / width).rounded(.down), upper: columns - 1)
        }

        /// The row of scene y in a scene `height` high (the scene starts at row 1).
        public func row(_ y: Double, height: Double) -> Int {
            1 + clamp((y * Double(sceneRows) / height).rounded(.down), upper: sceneRows - 1)
        }

        /// The last column inside a right edge at scene x.
        func lastColumn(_ x: Double, width: Double) -> Int {
            clamp((x * Double(columns) / width).rounded(.up) - 1, upper: columns - 1)
        }

        func lastRow(_ y: Double, height: Double) -> Int {
            1 + clamp((y * Double(sceneRows) / height).rounded(.up) - 1, upper: sceneRows - 1)
        }

        /// NaN and infinities (a zero-sized scene) land on an edge rather than trap.
        private func clamp(_ value: Double, upper: Int) -> Int {
            guard value.isFinite else { return value == .infinity ? upper : 0 }
            return Int(min(max(value, 0), Double(max(upper, 0))))
        }
    }

    public static func render(_ state: ViewState, rows: Int, columns: Int, title: String = "touchd") -> Screen {
        var screen = Screen(rows: rows, columns: columns)
        guard columns >= minimumColumns, rows >= minimumRows else {
            screen.write("terminal too small", row: 0, column: 0)
            return screen
        }
        let layout = Layout(rows: rows, columns: columns)
        header(state, title: title, into: &screen)
        if let scene = state.scene, scene.width > 0, scene.height > 0 {
            regions(scene, touched: state.touchedRegions, layout: layout, into: &screen)
            fingers(state, scene: scene, layout: layout, into: &screen)
        } else {
            screen.write("waiting for the scene", row: 1, column: 0)
        }
        gestures(state, layout: layout, into: &screen)
        return screen
    }

    static func header(_ state: ViewState, title: String, into screen: inout Screen) {
        var text = title
        if let scene = state.scene { text += "  scene \(number(scene.width))x\(number(scene.height))" }
        text += "  fingers \(state.fingers.count)  q quits"
        if let ended = state.ended { text = ended }
        screen.write(text, row: 0, column: 0, style: Screen.Style(bold: true))
    }

    static func regions(_ scene: ViewScene, touched: Set<String>, layout: Layout, into screen: inout Screen) {
        for nodeIndex in scene.index.order.reversed() {
            let node = scene.index.nodes[nodeIndex]
            guard isShown(node, in: scene.index) else { continue }
            let isTouched = touched.contains(node.id)
            let style = Screen.Style(colour: scene.colourSlots[node.id].map { .region($0) }, bold: isTouched)
            let left = layout.column(node.frame.minX, width: scene.width)
            let right = max(left, layout.lastColumn(node.frame.maxX, width: scene.width))
            let top = layout.row(node.frame.minY, height: scene.height)
            let bottom = max(top, layout.lastRow(node.frame.maxY, height: scene.height))
            let corner = UInt8(ascii: isTouched ? "#" : "+")
            let horizontal = UInt8(ascii: isTouched ? "=" : "-")
            let vertical = UInt8(ascii: "|")
            for column in left...right {
                screen.put(horizontal, row: top, column: column, style: style)
                screen.put(horizontal, row: bottom, column: column, style: style)
            }
            for row in top...bottom {
                screen.put(vertical, row: row, column: left, style: style)
                screen.put(vertical, row: row, column: right, style: style)
            }
            for (row, column) in [(top, left), (top, right), (bottom, left), (bottom, right)] {
                screen.put(corner, row: row, column: column, style: style)
            }
            screen.write(node.id, row: top, column: left + 1, limit: right, style: style)
        }
    }

    /// Drawn unless it or an ancestor is hidden: disabled regions still show, as they do on the screen.
    static func isShown(_ node: SceneIndex.Node, in index: SceneIndex) -> Bool {
        var current: SceneIndex.Node? = node
        while let visiting = current {
            if visiting.region.hidden || visiting.region.alpha <= SceneIndex.minimumAlpha { return false }
            current = visiting.parent.map { index.nodes[$0] }
        }
        return true
    }

    static func fingers(_ state: ViewState, scene: ViewScene, layout: Layout, into screen: inout Screen) {
        for key in state.fingers.keys.sorted() {
            let finger = state.fingers[key]!
            let colour: Screen.Colour = finger.region.flatMap { scene.colourSlots[$0] }.map { .region($0) } ?? .neutral
            screen.put(
                fingerMark, row: layout.row(finger.location.y, height: scene.height),
                column: layout.column(finger.location.x, width: scene.width),
                style: Screen.Style(colour: colour, bold: true))
        }
    }

    static func gestures(_ state: ViewState, layout: Layout, into screen: inout Screen) {
        guard layout.gestureRows > 0 else { return }
        let firstRow = 1 + layout.sceneRows
        let shown = state.gestures.suffix(layout.gestureRows)
        if shown.isEmpty { screen.write("no gestures yet", row: firstRow, column: 0) }
        for (offset, line) in shown.enumerated() {
            let colour = state.scene?.colourSlots[line.region].map { Screen.Colour.region($0) }
            screen.write(
                "\(line.region)  \(line.name)  \(line.state)", row: firstRow + offset, column: 0,
                style: Screen.Style(colour: colour))
        }
    }

    /// A scene size without a needless ".0".
    static func number(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
