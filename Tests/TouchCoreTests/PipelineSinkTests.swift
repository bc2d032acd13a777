import Testing
import TouchCore
import TouchTestKit

/// `TouchPipeline.process(_:handingTo:)`, the path with no array between the decoder and its consumer, against the
/// array path: the same outputs in the same order, the same counts, for each filter.
@Suite("Pipeline: outputs handed to a sink")
struct PipelineSinkTests {
    /// Records what it is handed, as an array would hold it, and how the calls arrived.
    struct RecordingSink: PipelineOutputSink {
        var outputs: [PipelineOutput] = []
        var calls = 0
        mutating func finger(_ mapped: MappedFingerEvent) {
            outputs.append(.finger(mapped))
            calls += 1
        }
        mutating func frameEnd(_ time: EventTime) {
            outputs.append(.frameEnd(time))
            calls += 1
        }
    }

    /// Two fingers: a down each, jitter inside a fuzz of 16, a drag beyond it, a frame that changes only the
    /// pressure, a palm, a lift, and a tracking id replaced without a lift.
    static var events: [InputEvent] {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1000, y: 1000).slot(1).trackingID(2).position(x: 3000, y: 500)
            .report()
        for (x, y) in [(1006, 995), (1030, 1000), (1060, 1004), (1061, 1004)] as [(Int32, Int32)] {
            script.slot(0).position(x: x, y: y).slot(1).position(x: 3000 - x / 100, y: 500).report()
        }
        script.slot(1).abs(AbsCode.mtPressure, 40).report()
        script.slot(1).abs(AbsCode.mtToolType, ToolType.palm).report()
        script.slot(0).trackingID(-1).report()
        script.slot(1).trackingID(-1).report()
        script.slot(2).trackingID(7).position(x: -5, y: 4095).report()
        script.slot(2).trackingID(8).position(x: 2, y: 4000).report()
        return script.events
    }

    static var device: DeviceDescription {
        var device = TestDevices.touchscreen
        device.absInfo[AbsCode.mtPositionX]?.fuzz = 16
        device.absInfo[AbsCode.mtPositionY]?.fuzz = 16
        return device
    }

    @Test(
        "the sink gets exactly what the array gets, in order, with the same counts",
        arguments: [JitterFilter.off, .standard, .fuzz(override: 40), .oneEuro(.standard)])
    func sameAsArray(filter: JitterFilter) throws {
        let mapping = try CoordinateMapping(device: Self.device)
        var collecting = TouchPipeline(
            decoder: TouchDecoder(description: Self.device), mapping: mapping, filter: filter)
        var handing = collecting
        var collected: [PipelineOutput] = []
        var sink = RecordingSink()
        for event in Self.events {
            collecting.process(event, into: &collected)
            handing.process(event, handingTo: &sink)
            #expect(sink.outputs == collected)
            #expect(handing.countLiveFingers() == collecting.liveFingerCount)
        }
        #expect(!collected.isEmpty)
        #expect(sink.calls == collected.count)
        #expect(handing.diagnostics == collecting.diagnostics)
        #expect(handing.filter.trackedFingers == collecting.filter.trackedFingers)
        #expect(handing.liveFingerCount == collecting.liveFingerCount)
    }
}
