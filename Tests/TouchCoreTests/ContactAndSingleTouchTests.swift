import Testing
import TouchTestKit

@testable import TouchCore

@Suite("Protocol A and single touch")
struct ContactAndSingleTouchTests {
    @Test("protocol A: identities follow the nearest contact of the previous frame")
    func nearestNeighbour() {
        let script = EventScript()
        script.position(x: 1000, y: 1000).contactReport().position(x: 5000, y: 5000).contactReport().report()
        // Same two contacts, reported in the other order and moved a little.
        script.position(x: 5050, y: 5000).contactReport().position(x: 1010, y: 1000).contactReport().report()
        script.position(x: 5100, y: 5000).contactReport().report()  // the first contact lifted
        script.contactReport().report()  // and the second
        #expect(
            summarize(decodeAll(script.events, device: TestDevices.contactReporter).outputs) == [
                "down 1 s0 (1000,1000)", "down 2 s1 (5000,5000)", "frame",
                "move 2 s1 (5050,5000)", "move 1 s0 (1010,1000)", "frame",
                "up 1 s0 (1010,1000)", "move 2 s1 (5100,5000)", "frame",
                "up 2 s1 (5100,5000)", "frame",
            ])
    }

    @Test("protocol A: a contact jumping across the whole Int32 plane is a new touch (fuzz find, was a trap)")
    func jumpAcrossInt32Plane() {
        let script = EventScript()
        script.position(x: .min, y: .min).contactReport().report()
        script.position(x: .max, y: .max).contactReport().report()
        script.contactReport().report()
        #expect(
            summarize(decodeAll(script.events, device: TestDevices.contactReporter).outputs) == [
                "down 1 s0 (-2147483648,-2147483648)", "frame",
                "up 1 s0 (-2147483648,-2147483648)", "down 2 s0 (2147483647,2147483647)", "frame",
                "up 2 s0 (2147483647,2147483647)", "frame",
            ])
    }

    @Test("protocol A with tracking ids that restart at 0: a far jump is a new touch")
    func restartingIDs() {
        let script = EventScript()
        script.trackingID(0).position(x: 100, y: 100).contactReport().report()
        script.trackingID(0).position(x: 110, y: 100).contactReport().report()
        // Lifted and a new touch elsewhere in the same frame gap: the id is 0 again.
        script.trackingID(0).position(x: 9000, y: 7000).contactReport().report()
        script.contactReport().report()
        #expect(
            summarize(decodeAll(script.events, device: TestDevices.contactReporter).outputs) == [
                "down 1 s0 (100,100)", "frame",
                "move 1 s0 (110,100)", "frame",
                "up 1 s0 (110,100)", "down 2 s0 (9000,7000)", "frame",
                "up 2 s0 (9000,7000)", "frame",
            ])
    }

    @Test("protocol A: BTN_TOUCH 0 without SYN_MT_REPORT lifts all; key-only frames change nothing")
    func liftByKey() {
        let script = EventScript()
        script.position(x: 10, y: 10).contactReport().key(KeyCode.touch, 1).report()
        script.event(EventType.msc, 0x05, 1234).report()  // MSC_TIMESTAMP only: no change
        script.key(KeyCode.touch, 0).report()
        #expect(
            summarize(decodeAll(script.events, device: TestDevices.contactReporter).outputs) == [
                "down 1 s0 (10,10)", "frame", "up 1 s0 (10,10)", "frame",
            ])
    }

    @Test("protocol A palm: cancel for a live contact, nothing for a new one")
    func contactPalm() {
        let script = EventScript()
        script.position(x: 10, y: 10).contactReport().report()
        script.position(x: 12, y: 10).tool(ToolType.palm).contactReport().report()
        script.position(x: 14, y: 10).tool(ToolType.palm).contactReport().report()
        script.contactReport().report()
        let (outputs, decoder) = decodeAll(script.events, device: TestDevices.contactReporter)
        #expect(summarize(outputs) == ["down 1 s0 (10,10)", "frame", "cancel 1 s0 (12,10)", "frame"])
        #expect(decoder.diagnostics.palmCancels == 1)
    }

    @Test("single-touch device: BTN_TOUCH opens and closes one finger")
    func singleTouch() {
        let script = EventScript()
        script.abs(AbsCode.x, 100).abs(AbsCode.y, 200).report()  // hover: no finger
        script.key(KeyCode.touch, 1).abs(AbsCode.pressure, 30).report()
        script.abs(AbsCode.x, 110).report()
        script.key(KeyCode.touch, 0).report()
        script.key(KeyCode.touch, 1).report()
        let (outputs, decoder) = decodeAll(script.events, device: TestDevices.singleTouch)
        #expect(decoder.touchProtocol == .singleTouch)
        #expect(
            summarize(outputs) == [
                "down 1 s0 (100,200)", "frame", "move 1 s0 (110,200)", "frame", "up 1 s0 (110,200)", "frame",
                "down 2 s0 (110,200)", "frame",
            ])
    }

    @Test("contact matcher: equal ids win over distance only within the jump limit")
    func matcherRules() {
        let previous = [
            ContactMatcher.Point(x: 0, y: 0, trackingID: 1), ContactMatcher.Point(x: 100, y: 0, trackingID: 2),
        ]
        // Id 2 is now nearer to the old id-1 place, but ids are kept.
        let current = [
            ContactMatcher.Point(x: 40, y: 0, trackingID: 2), ContactMatcher.Point(x: 60, y: 0, trackingID: 1),
        ]
        #expect(ContactMatcher.match(previous: previous, current: current, maxDistanceSquared: 10_000) == [1, 0])
        // Beyond the limit nothing matches.
        #expect(ContactMatcher.match(previous: previous, current: current, maxDistanceSquared: 100) == [nil, nil])
    }

    @Test("contact matcher: opposite corners of the Int32 plane are far apart, not an overflow (fuzz find)")
    func matcherExtremeCoordinates() {
        let corner = ContactMatcher.Point(x: .min, y: .min)
        let opposite = ContactMatcher.Point(x: .max, y: .max)
        // (2^32 - 1)^2 fits in Int64 only once; the sum of two does not, so the pair is beyond any limit.
        #expect(ContactMatcher.squaredDistance(corner, opposite) == nil)
        let alongX = ContactMatcher.Point(x: .max, y: .min)
        #expect(ContactMatcher.squaredDistance(corner, alongX) == nil)  // 2^64 - 2^33 + 1 > Int64.max
        #expect(ContactMatcher.squaredDistance(corner, ContactMatcher.Point(x: Int32.min + 3, y: Int32.min + 4)) == 25)
        #expect(ContactMatcher.match(previous: [corner], current: [opposite], maxDistanceSquared: .max) == [nil])
        #expect(ContactMatcher.match(previous: [corner], current: [corner], maxDistanceSquared: 0) == [0])
    }
}
