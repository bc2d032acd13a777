import Testing
import TouchCore
import TouchJSON
import TouchScene
import TouchWire

/// Lines of fingers at positions no device reports but a scene mapping can make (NaN, infinities, huge, negative,
/// -0.0), through one writer that keeps growing: each line must be what a new writer prints for it alone, whatever
/// the memo of numbers held from earlier lines or lost when the buffer grew.
@Suite("Touch lines with odd numbers through one growing writer")
struct OddNumberLinesTests {
    @Test("NaN, infinities, huge, negative and -0.0 positions, fingers colliding modulo 16 and 64")
    func oddPositions() throws {
        let scene = try SceneLoader.parse(
            #"""
            {"size": [200, 100], "regions": [
                {"id": "origin", "frame": [0, 0, 100, 100], "gestures": ["drag"]},
                {"id": "right", "frame": [100, 0, 100, 100], "gestures": ["drag"]}]}
            """#, file: "two.json")
        let dispatcher = Dispatcher(scene: scene)
        let device = DeviceTag(index: 1, name: "event1")
        let odd: [Double] = [
            .nan, -.nan, .infinity, -.infinity, 1e300, -1e300, 9.2e16, -9.2e16, 1e15 + 0.125, 123_456_789_012.345,
            -0.0, 0, -0.004, 0.005, -0.005, 99.995, 9_999.995, 10_000.004, -10_000.005, 1e-300, 50, 150.5,
        ]
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var shared = JSONWriter(capacity: 16)
        var expected: [UInt8] = []
        var time: Int64 = 0
        var lines = 0
        for round in 0..<40 {
            for finger in [UInt32(1), 17, 33, 65, 129, 2, 18] {
                time += 1_000
                let phase: TouchPhase = round == 0 ? .down : (round == 39 ? .up : .move)
                let x = next(3) == 0 ? Double(next(200)) : odd[next(odd.count)]
                let y = next(3) == 0 ? Double(next(100)) / 3 : odd[next(odd.count)]
                let event = FingerEvent(
                    phase: phase, finger: FingerID(finger), slot: Int32(finger % 10),
                    time: EventTime(microseconds: time), contact: ContactState(x: 1, y: 2))
                for dispatched in dispatcher.handle(
                    .finger(MappedFingerEvent(event: event, position: Point(x: x, y: y))), device: device)
                {
                    DispatchEventEncoder.encode(dispatched, into: &shared)
                    var alone = JSONWriter()
                    DispatchEventEncoder.encode(dispatched, into: &alone)
                    expected += alone.bytes
                    lines += 1
                }
            }
        }
        #expect(lines >= 280)
        #expect(shared.bytes == expected)
        #expect(String(decoding: expected, as: UTF8.self).contains("null"))
    }
}
