import Testing
import TouchCalibration

@Suite struct CalibrationSessionTests {
    /// A panel that needs no correction: each tap lands in the device's square where its target is in the display's.
    private let places = CalibrationTargets.places

    @Test func aDoubleTapIsNotTheNextTarget() {
        var session = CalibrationSession(targets: places)
        #expect(session.tap(places[0]) == .accepted)
        #expect(session.tap((0.13, 0.13)) == .rejected(.tooClose))
        #expect(session.next == 1)
        #expect(session.tap(places[1]) == .accepted)
    }

    @Test func theThirdTapMustLeaveTheLineOfTheFirstTwo() {
        var session = CalibrationSession(targets: places)
        _ = session.tap(places[0])
        _ = session.tap(places[1])
        #expect(session.tap((0.5, 0.125)) == .rejected(.collinear))
        #expect(session.tap(places[2]) == .accepted)
    }

    @Test func aTapFarFromWhereTheFirstThreePredictIsAMisTapAndAskedAgain() {
        var session = CalibrationSession(targets: places)
        for place in places[0..<3] { #expect(session.tap(place) == .accepted) }
        // The fourth target is (0.875, 0.875); a tap at the centre maps to the centre, 0.375·√2 away.
        guard case .rejected(.offTarget(let x, let y, let distance)) = session.tap((0.5, 0.5)) else {
            Issue.record("expected a mis-tap")
            return
        }
        #expect(abs(x - 0.5) < 1e-12 && abs(y - 0.5) < 1e-12)
        #expect(abs(distance - 0.375 * 2.0.squareRoot()) < 1e-12)
        #expect(session.next == 3)
        #expect(session.tap((0.88, 0.87)) == .accepted)
        guard case .finished(let fit) = session.tap(places[4]) else {
            Issue.record("expected the fit after the fifth tap")
            return
        }
        #expect(abs(fit.matrix.a - 1) < 0.02 && abs(fit.matrix.e - 1) < 0.02)
    }

    @Test func twoMisTapsInARowStartOver() {
        var session = CalibrationSession(targets: places)
        for place in places[0..<3] { _ = session.tap(place) }
        #expect(session.tap((0.5, 0.5)) != .accepted)
        #expect(session.tap((0.5, 0.5)) == .restarted)
        #expect(session.next == 0)
    }

    @Test func aMirroredPanelIsPredictedToo() {
        // x mirrored: each target's tap is at 1 − x. The first three fix the mirror; the fourth is then expected at
        // x = 0.125, and a tap there is accepted.
        var session = CalibrationSession(targets: places)
        for place in places[0..<3] { #expect(session.tap((1 - place.x, place.y)) == .accepted) }
        #expect(session.tap((0.125, 0.875)) == .accepted)
    }
}
