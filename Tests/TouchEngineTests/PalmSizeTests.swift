import Testing
import TouchCore
import TouchEngine
import TouchFormats
import TouchRecordingFiles
import TouchScene
import TouchTestKit
import TouchWire

/// Palms by size (`palmSize`, libinput's palm size threshold for touchscreens) on a real panel that reports touch
/// size: the N-Trig of a Dell XT2 (evemu/ntrig-dell-xt2.event, protocol A, ABS_MT_TOUCH_MAJOR 0...9600 with no
/// resolution, so the threshold is in device units). Its three contacts report, frame by frame (read from the
/// file: `awk '$4 == "0030"'`): the one near (7411, 4677) 462, 462, 360, …; the one near (7361, 3291) 462, 360,
/// 462, …; the one near (5912, 1483) 540 throughout. The file has 4 touches (SharedRecordingsTests' tally).
@Suite(
    "Engine: palms by size on a real panel",
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct PalmSizeTests {
    /// The recording without its first frame (cut after its first SYN_REPORT): the contact near (7361, 3291) then
    /// begins at 360 and reaches 462 in the next frame, the cut file's second.
    func cutRecording() throws -> Recording {
        var recording = try RecordingLoader.load(path: SharedRecordings.path("evemu/ntrig-dell-xt2.event"))
        let firstReport = try #require(
            recording.events.firstIndex { $0.type == EventType.syn && $0.code == SynCode.report })
        recording.events.removeSubrange(...firstReport)
        return recording
    }

    /// One contact of a protocol A frame, from its events up to its SYN_MT_REPORT.
    struct Contact {
        var x: Int32 = 0
        var y: Int32 = 0
        var major: Int32 = 0
    }

    /// The recording's frames (each up to its SYN_REPORT, with that report's time) as protocol A contact lists.
    static func contactFrames(_ recording: Recording) -> [(time: EventTime, contacts: [Contact])] {
        var frames: [(time: EventTime, contacts: [Contact])] = []
        var contacts: [Contact] = []
        var contact = Contact()
        for event in recording.events {
            switch (event.type, event.code) {
            case (EventType.abs, AbsCode.mtPositionX): contact.x = event.value
            case (EventType.abs, AbsCode.mtPositionY): contact.y = event.value
            case (EventType.abs, AbsCode.mtTouchMajor): contact.major = event.value
            case (EventType.syn, SynCode.mtReport):
                contacts.append(contact)
                contact = Contact()
            case (EventType.syn, SynCode.report):
                frames.append((event.time, contacts))
                contacts = []
            default: break
            }
        }
        return frames
    }

    /// The frame at which a contact that began at or under `threshold` passes it, kept by hand from the raw
    /// events: from the first frame with a contact at or under the threshold, that contact is followed to the
    /// nearest contact of each next frame (the panel's contacts stay thousands of units apart).
    static func firstFrame(passing threshold: Int32, in frames: [(time: EventTime, contacts: [Contact])]) -> Int? {
        guard let start = frames.firstIndex(where: { $0.contacts.contains { $0.major <= threshold } }),
            var followed = frames[start].contacts.first(where: { $0.major <= threshold })
        else { return nil }
        for index in frames.indices where index > start {
            let distance = { (contact: Contact) in
                Int64(contact.x - followed.x) * Int64(contact.x - followed.x)
                    + Int64(contact.y - followed.y) * Int64(contact.y - followed.y)
            }
            guard let nearest = frames[index].contacts.min(by: { distance($0) < distance($1) }) else { return nil }
            if nearest.major > threshold { return index }
            followed = nearest
        }
        return nil
    }

    func run(_ recording: Recording, palmMajor: Int32?) throws -> (EngineHarness, DeviceHandle, [WireLine]) {
        let harness = EngineHarness(scene: Fixtures.scene(#"{"size": [9601, 7201], "regions": []}"#))
        var spec = DeviceSpec(key: .named("event5"), node: "/dev/input/event5", description: recording.description)
        spec.filter = .off
        spec.palmMajor = palmMajor
        spec.virtualTouchscreen = VirtualTouchscreen.description(for: recording.description)
        let device = try harness.addDevice(spec)
        let client = try harness.client()
        try harness.subscribe(client, #""events":["touch"]"#)
        harness.feed(recording.events, from: device)
        return (harness, device, harness[client].take().touches)
    }

    @Test("without a threshold all four touches are fingers (the default is off)")
    func offByDefault() throws {
        let (_, _, touches) = try run(cutRecording(), palmMajor: nil)
        #expect(touches.ofType("down").count == 4)
        #expect(touches.ofType("cancel").isEmpty)
    }

    @Test("above 400 units: the growing contact is cancelled at the frame it passes 400, for clients and libinput")
    func cancelAtTheRightFrame() throws {
        let recording = try cutRecording()
        let contactFrames = Self.contactFrames(recording)
        let palmFrame = try #require(Self.firstFrame(passing: 400, in: contactFrames))
        let (harness, device, touches) = try run(recording, palmMajor: 400)
        // The touches already above 400 at their first frame (three of the four) are never reported; the one near
        // (7361, 3291) goes down at 360.
        #expect(touches.ofType("down").count == 1)
        let cancels = touches.ofType("cancel")
        #expect(cancels.count == 1)
        #expect(cancels.first?.number("time_us") == Double(contactFrames[palmFrame].time.microseconds))
        #expect(cancels.first?.string("tool") == "palm")
        // Three suppressed and one cancelled: all four by size, none by tool (the panel has no tool type).
        #expect(harness.engine.diagnostics(of: device)?.palmsBySize == 4)
        #expect(harness.engine.diagnostics(of: device)?.palmCancels == 1)
        // The virtual touchscreen: the down (slot 0), then that slot palm in one frame and lifted in the next.
        let frames = harness.emitted.map { $0.frame.map { "\($0.type):\($0.code):\($0.value)" }.joined(separator: " ") }
        #expect(frames.count == 2)
        #expect(frames.last?.hasPrefix("3:55:2 0:0:0 3:57:-1") == true)
        #expect(harness.engine.virtualFingerCount(of: device) == 0)
    }
}
