import Testing
import TouchCalibration

@Suite struct CalibrationTargetsTests {
    @Test func eighthsInAnEightyByTwentyFourGrid() {
        // 80/8 = 10 and 24/8 = 3: the cells at column 10 and 70, row 3 and 21, and the centre cell (40, 12).
        let drawn = CalibrationTargets.drawn(columns: 80, rows: 24)
        #expect(
            drawn.map(\.cell) == [
                .init(column: 10, row: 3), .init(column: 70, row: 3), .init(column: 10, row: 21),
                .init(column: 70, row: 21), .init(column: 40, row: 12),
            ])
        #expect(drawn[0].target == (10.5 / 80, 3.5 / 24))
        #expect(drawn[3].target == (70.5 / 80, 21.5 / 24))
        #expect(drawn[4].target == (40.5 / 80, 12.5 / 24))
    }

    @Test func aTinyGridStillHasItsTargetsInside() {
        let drawn = CalibrationTargets.drawn(columns: 3, rows: 2)
        #expect(drawn.map(\.cell.column) == [0, 2, 0, 2, 1])
        #expect(drawn.map(\.cell.row) == [0, 0, 1, 1, 1])
    }

    @Test func targetListsAreXCommaYWords() throws {
        let points = try CalibrationTargets.parse(" 10,20  30.5,-4\t7,8 ").get()
        #expect(points.count == 3)
        #expect(points[1] == (30.5, -4))
        #expect(throws: CalibrationTargets.TargetListError(word: "10;20")) {
            try CalibrationTargets.parse("1,2 10;20").get()
        }
        #expect(throws: CalibrationTargets.TargetListError(word: "1,2,3")) {
            try CalibrationTargets.parse("1,2,3").get()
        }
    }
}
