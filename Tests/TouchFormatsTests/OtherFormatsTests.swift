import Testing
import TouchCore
import TouchFormats
import TouchTestKit

@Suite("raw, getevent, evtest and libinput record readers")
struct OtherFormatsTests {
    @Test("raw input_event dumps round-trip and a truncated tail is an error naming the offset")
    func raw() throws {
        let script = EventScript()
        script.trackingID(1).position(x: -5, y: 70000).report()
        let bytes = RawEventReader.write(script.events)
        #expect(bytes.count == script.events.count * 24)
        #expect(try RawEventReader.parse(bytes, file: "dump") == script.events)
        #expect(FormatDetection.detect(bytes) == .raw)
        let error = try #require(throws: RecordingError.self) {
            try RawEventReader.parse(Array(bytes.dropLast(5)), file: "dump")
        }
        #expect(error.kind == .truncated)
        #expect(error.message.contains("19 trailing bytes at offset 72"))
    }

    @Test("getevent -lt lines decode names and hex values")
    func getevent() throws {
        let text = """
            add device 1: /dev/input/event2
              name:     "touch"
            [    1482.431904] EV_ABS       ABS_MT_POSITION_X    00000213
            [    1482.431933] EV_KEY       BTN_TOUCH            DOWN
            [    1482.431937] EV_ABS       ABS_MT_TRACKING_ID   ffffffff
            [    1482.431956] /dev/input/event2: 0000 0000 00000000
            """
        let parsed = try GeteventReader.parse(Array(text.utf8), file: "trace")
        #expect(
            parsed.events == [
                InputEvent(time: EventTime(microseconds: 1_482_431_904), type: 3, code: 0x35, value: 0x213),
                InputEvent(time: EventTime(microseconds: 1_482_431_933), type: 1, code: 0x14a, value: 1),
                InputEvent(time: EventTime(microseconds: 1_482_431_937), type: 3, code: 0x39, value: -1),
                InputEvent(time: EventTime(microseconds: 1_482_431_956), type: 0, code: 0, value: 0),
            ])
        #expect(FormatDetection.detect(Array(text.utf8)) == .getevent)
    }

    @Test("unknown getevent names are errors with the line")
    func geteventUnknown() throws {
        let error = try #require(throws: RecordingError.self) {
            try GeteventReader.parse(Array("[ 1.0] EV_ABS ABS_NOT_A_THING 00000001\n".utf8), file: "trace")
        }
        #expect(error.kind == .unknownCode && error.line == 1)
    }

    @Test("evtest text: header axes and event lines")
    func evtest() throws {
        let text = """
            Input driver version is 1.0.1
            Input device ID: bus 0x18 vendor 0x0 product 0x0 version 0x0
            Input device name: "Panel"
            Supported events:
              Event type 3 (EV_ABS)
                Event code 53 (ABS_MT_POSITION_X)
                  Value      0
                  Min        0
                  Max     2039
                  Resolution      20
            Testing ... (interrupt to exit)
            Event: time 18810.145235, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 2091
            Event: time 18810.145247, -------------- SYN_REPORT ------------
            """
        let recording = try EvtestReader.parse(Array(text.utf8), file: "log")
        #expect(recording.description.name == "Panel")
        #expect(recording.description.id.bustype == 0x18)
        #expect(
            recording.description.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 2039, resolution: 20))
        #expect(recording.events.count == 2)
        #expect(recording.events[1].isSynReport)
        #expect(FormatDetection.detect(Array(text.utf8)) == .evtest)
    }

    @Test("libinput record YAML: description and framed events")
    func libinputRecord() throws {
        let text = """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event14
              evdev:
                # Name: comment lines are skipped
                name: "ITE Touchpad"
                id: [3, 1739, 10600, 272]
                codes:
                  0: [0, 1, 2]
                  3: [0, 1, 47, 53, 54, 57]
                absinfo:
                  47: [0, 2, 0, 0, 0]
                  53: [0, 1051, 0, 0, 12]
                  54: [0, 571, 0, 0, 12]
                  57: [0, 65535, 0, 0, 0]
                properties: [0, 2]
              unknown_key: ignored
              events:
              - evdev:
                - [  0,      0,   3,  57,    80] # EV_ABS / ABS_MT_TRACKING_ID     80
                - [  0,      0,   0,   0,     0]
              - evdev:
                - [  1,   9967,   3,  57,    -1]
            """
        let recording = try LibinputRecordReader.parse(Array(text.utf8), file: "r.yml")
        #expect(recording.description.name == "ITE Touchpad")
        #expect(recording.description.id == DeviceID(bustype: 3, vendor: 1739, product: 10600, version: 272))
        #expect(recording.description.slotCount == 3)
        #expect(recording.description.properties == [0, 2])
        #expect(recording.events.map(\.value) == [80, 0, -1])
        #expect(recording.events[2].time == EventTime(microseconds: 1_009_967))
        #expect(FormatDetection.detect(Array(text.utf8)) == .libinputRecord)
    }

    @Test("libinput record errors name the line and key path")
    func libinputRecordErrors() throws {
        let text = "version: 1\ndevices:\n- evdev:\n    name: x\n    absinfo:\n      53: [0, 100, 0]\n"
        let error = try #require(throws: RecordingError.self) {
            try LibinputRecordReader.parse(Array(text.utf8), file: "r.yml")
        }
        #expect(error.line == 6)
        #expect(error.field == "devices[0].evdev.absinfo.53")
        #expect(error.kind == .wrongFieldCount)
    }

    @Test("a description inferred from events alone")
    func inference() {
        let script = EventScript()
        script.trackingID(3).position(x: 500, y: 900).report()
        script.position(x: 1200, y: 40).report()
        let device = DescriptionInference.infer(from: script.events)
        #expect(device.touchProtocol == .slotted)
        #expect(device.slotCount == 1)
        #expect(device.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 1200))
        #expect(device.absInfo[AbsCode.mtPositionY] == AbsInfo(minimum: 0, maximum: 900))

        let protocolA = EventScript()
        protocolA.position(x: 5, y: 5).contactReport().report()
        #expect(DescriptionInference.infer(from: protocolA.events).touchProtocol == .contactReports)
    }
}
