import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchScene
import TouchWire

@Suite("region-scrolled on the wire")
struct ScrollEventRouteTests {
    /// A finger on a 100×100 container over 100×300 of content, dragged 40 up: offset (0, 40).
    @Test("a scroll container's offset reaches clients as a region-scrolled line, routed as a region event")
    func regionScrolled() throws {
        let scene = try SceneLoader.parse(
            #"{"size": [100, 100], "regions": [{"id": "list", "frame": [0, 0, 100, 100], "scroll": {"contentSize": [100, 300]}}]}"#,
            file: "scroll.json")
        let dispatcher = Dispatcher(scene: scene)
        let device = DeviceTag(index: 0, name: "event3")
        var events: [DispatchEvent] = []
        for (phase, y, ms) in [(TouchPhase.down, 90.0, 0), (.move, 50.0, 20)] as [(TouchPhase, Double, Int64)] {
            let event = FingerEvent(
                phase: phase, finger: FingerID(1), slot: 0, time: EventTime(microseconds: ms * 1000),
                contact: ContactState(x: 50, y: Int32(y)))
            events += dispatcher.handle(
                .finger(MappedFingerEvent(event: event, position: Point(x: 50, y: y))), device: device)
        }
        let scrolled = try #require(events.first { if case .regionScrolled = $0 { true } else { false } })
        var writer = JSONWriter()
        DispatchEventEncoder.encode(scrolled, into: &writer)
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"type":"region-scrolled","region":"list","time_us":20000,"offset":[0,40]}"# + "\n")
        let route = EventRoute(scrolled)
        #expect(route == EventRoute(kind: .region, scope: .region("list"), device: nil, queueKind: .essential))
        #expect(Subscription(kinds: [.region], regions: ["list"]).admits(route))
        #expect(!Subscription(kinds: [.touch, .gesture]).admits(route))
    }
}
