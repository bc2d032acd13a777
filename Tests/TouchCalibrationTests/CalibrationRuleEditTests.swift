import Foundation
import Testing
import TouchCalibration
import TouchCore

@Suite struct CalibrationRuleEditTests {
    private let matrix = CalibrationMatrix(0, -1, 1, 1, 0, 0)

    private func edit(_ text: String, name: String = "Panel") throws -> String {
        try CalibrationRuleEdit.apply(to: text, deviceName: name, matrix: matrix)
    }

    @Test func anExistingCalibrationIsReplacedAndNothingElseMoves() throws {
        let text = """
            {
              "logLevel":   "debug",
              "devices": [
                {"match": {"name": "Panel"},  "calibration": [1, 0, 0,
                                                              0, 1, 0], "grab": true},
                {"match": {"node": "/dev/input/event9"}, "use": false}
              ]
            }

            """
        let expected = """
            {
              "logLevel":   "debug",
              "devices": [
                {"match": {"name": "Panel"},  "calibration": [0, -1, 1, 1, 0, 0], "grab": true},
                {"match": {"node": "/dev/input/event9"}, "use": false}
              ]
            }

            """
        #expect(try edit(text) == expected)
    }

    @Test func aRuleWithoutCalibrationGetsOneWithItsOwnSeparator() throws {
        let text = """
            {"devices": [
                {
                    "match": {"name": "Panel"},
                    "rotate": 90
                }
            ]}
            """
        let expected = """
            {"devices": [
                {
                    "match": {"name": "Panel"},
                    "rotate": 90,
                    "calibration": [0, -1, 1, 1, 0, 0]
                }
            ]}
            """
        #expect(try edit(text) == expected)
    }

    @Test func aLaterRuleSettingCalibrationMeansAppending() throws {
        let text = """
            {"devices": [{"match": {"name": "Panel"}, "calibration": [1, 0, 0, 0, 1, 0]}, {"match": {"vendor": "0eef"}, "calibration": [1, 0, 0, 0, 1, 0]}]}
            """
        let expected = """
            {"devices": [{"match": {"name": "Panel"}, "calibration": [1, 0, 0, 0, 1, 0]}, {"match": {"vendor": "0eef"}, "calibration": [1, 0, 0, 0, 1, 0]}, {"match": {"name": "Panel"}, "calibration": [0, -1, 1, 1, 0, 0]}]}
            """
        #expect(try edit(text) == expected)
    }

    @Test func aRuleMatchingMoreThanTheNameIsNotTheDevicesOwn() throws {
        let text = """
            {
              "devices": [
                {"match": {"name": "Panel", "node": "/dev/input/event3"}, "rotate": 180}
              ]
            }
            """
        let expected = """
            {
              "devices": [
                {"match": {"name": "Panel", "node": "/dev/input/event3"}, "rotate": 180},
                {"match": {"name": "Panel"}, "calibration": [0, -1, 1, 1, 0, 0]}
              ]
            }
            """
        #expect(try edit(text) == expected)
    }

    @Test func aFileWithoutDevicesGetsThemFirst() throws {
        let text = "{\n  \"grab\": false\n}\n"
        let expected =
            "{\n  \"devices\": [{\"match\": {\"name\": \"Panel\"}, \"calibration\": [0, -1, 1, 1, 0, 0]}],\n  \"grab\": false\n}\n"
        #expect(try edit(text) == expected)
        #expect(
            try edit("{}")
                == "{\"devices\": [{\"match\": {\"name\": \"Panel\"}, \"calibration\": [0, -1, 1, 1, 0, 0]}]}")
        #expect(
            try edit("{\"devices\": []}")
                == "{\"devices\": [{\"match\": {\"name\": \"Panel\"}, \"calibration\": [0, -1, 1, 1, 0, 0]}]}")
    }

    @Test func aNameWithQuotesIsEscapedAndFoundAgain() throws {
        let once = try edit("{}", name: "ACME \"Touch\" \\ Panel")
        #expect(once.contains(#"{"name": "ACME \"Touch\" \\ Panel"}"#))
        // The second calibration of the same device edits the rule the first one wrote.
        let twice = try CalibrationRuleEdit.apply(
            to: once, deviceName: "ACME \"Touch\" \\ Panel", matrix: .identity)
        #expect(twice == once.replacingOccurrences(of: "[0, -1, 1, 1, 0, 0]", with: "[1, 0, 0, 0, 1, 0]"))
    }

    @Test func notAConfigurationIsAnError() {
        #expect(throws: CalibrationRuleEdit.Failure.notAnObject) { try edit("[1, 2]") }
        #expect(throws: CalibrationRuleEdit.Failure.devicesNotAnArray) { try edit("{\"devices\": {}}") }
        #expect(throws: CalibrationRuleEdit.Failure.self) { try edit("{\"devices\": [") }
    }
}
