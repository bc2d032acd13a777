import Testing
import TouchCalibration
import TouchCore
import TouchTestKit

@Suite struct CalibrationTapsTests {
    @Test func aTapIsTheMeanOfItsFingersPositions() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 100, y: 200).report()
        script.position(x: 104, y: 206).report()
        script.trackingID(-1).report()
        script.slot(0).trackingID(2).position(x: 3000, y: 50).report()
        script.trackingID(-1).report()
        let (outputs, _) = decodeAll(script.events, device: TestDevices.touchscreen)
        var taps = CalibrationTaps()
        for case .finger(let event) in outputs { taps.take(event) }
        let found = taps.finish()
        #expect(found.count == 2)
        #expect(found[0] == (102, 203))
        #expect(found[1] == (3000, 50))
    }

    @Test func aCancelledFingerIsNoTap() {
        var taps = CalibrationTaps()
        let time = EventTime(microseconds: 0)
        taps.take(
            FingerEvent(phase: .down, finger: FingerID(1), slot: 0, time: time, contact: ContactState(x: 5, y: 5)))
        taps.take(
            FingerEvent(phase: .cancel, finger: FingerID(1), slot: 0, time: time, contact: ContactState(x: 5, y: 5)))
        #expect(taps.finish().isEmpty)
    }
}
