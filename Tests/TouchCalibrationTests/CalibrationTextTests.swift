import Testing
import TouchCalibration
import TouchCore

@Suite struct CalibrationTextTests {
    @Test func libinputsFormAndUdevsRule() {
        let matrix = CalibrationMatrix(1.0000004, -0.0000004, 0.25, 0.5, 1.125, -0.0625)
        #expect(CalibrationText.property(matrix) == #"LIBINPUT_CALIBRATION_MATRIX="1 0 0.25 0.5 1.125 -0.0625""#)
        #expect(
            CalibrationText.udevRule(.identity, deviceName: "eGalax \"X\"")
                == #"ACTION=="add|change", SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="eGalax ?X?", "#
                + #"ENV{LIBINPUT_CALIBRATION_MATRIX}="1 0 0 0 1 0""#)
    }

    @Test func fixedDecimals() {
        #expect(CalibrationText.fixed(2.509803, 2) == "2.51")
        #expect(CalibrationText.fixed(-0.004, 2) == "0.00")
        #expect(CalibrationText.fixed(-1.25, 1) == "-1.3")
        #expect(CalibrationText.fixed(3, 0) == "3")
    }
}
