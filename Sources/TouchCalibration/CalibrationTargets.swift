/// Where calibration targets go: xinput_calibrator's places, an eighth of the width and height in from each
/// corner (upper left, upper right, lower left, lower right), then the centre.
public enum CalibrationTargets {
    /// The places as fractions of the display.
    public static let places: [(x: Double, y: Double)] = [
        (0.125, 0.125), (0.875, 0.125), (0.125, 0.875), (0.875, 0.875), (0.5, 0.5),
    ]

    /// A character cell of a terminal, counted from 0 at the top left.
    public struct Cell: Equatable, Sendable {
        public var column: Int
        public var row: Int

        public init(column: Int, row: Int) {
            self.column = column
            self.row = row
        }
    }

    /// A target drawn in a terminal's cell grid: its cell, and the cell's centre as a fraction of the display.
    ///
    /// The grid is taken to cover the display evenly, cell (c, r) spanning `c/columns ..< (c+1)/columns` across
    /// and `r/rows ..< (r+1)/rows` down; the target is where the place falls, and the fit uses that cell's centre,
    /// not the place, so the rounding to a cell costs nothing. What it cannot see is a grid that does not cover
    /// the display: a window's border or padding, or the unused strip a console leaves when the panel's pixels are
    /// not a whole number of cells, shifts every target by that much.
    public struct Drawn: Equatable, Sendable {
        public var cell: Cell
        public var target: (x: Double, y: Double)

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.cell == rhs.cell && lhs.target == rhs.target }
    }

    /// The five targets in a grid of `columns` × `rows` cells (each at least 1).
    public static func drawn(columns: Int, rows: Int) -> [Drawn] {
        places.map { place in
            let column = min(columns - 1, Int(place.x * Double(columns)))
            let row = min(rows - 1, Int(place.y * Double(rows)))
            return Drawn(
                cell: Cell(column: column, row: row),
                target: ((Double(column) + 0.5) / Double(columns), (Double(row) + 0.5) / Double(rows)))
        }
    }

    /// A `--targets` list: points `x,y` separated by spaces, in the display's units.
    public static func parse(_ text: String) -> Result<[(x: Double, y: Double)], TargetListError> {
        var points: [(x: Double, y: Double)] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            let parts = word.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
                return .failure(TargetListError(word: String(word)))
            }
            points.append((x, y))
        }
        return .success(points)
    }

    /// A word of a target list that is not `x,y`.
    public struct TargetListError: Error, Equatable, Sendable, CustomStringConvertible {
        public var word: String
        public init(word: String) { self.word = word }
        public var description: String { "'\(word)' is not a target: expected x,y (two numbers and a comma)" }
    }
}
