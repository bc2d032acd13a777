import Testing
import TouchCore
import TouchEngine
import TouchJSON
import TouchScene
import TouchWire

@Suite("Event routes from real dispatched events")
struct EventRouteTests {
    @Test("a finger on a region, a finger on nothing, a drag's changes and a frame get the routes a hand count gives")
    func routes() throws {
        let scene = try SceneLoader.parse(
            #"{"size": [100, 100], "regions": [{"id": "pad", "frame": [0, 0, 50, 50], "gestures": ["drag"]}]}"#,
            file: "routes.json")
        let dispatcher = Dispatcher(scene: scene)
        let device = DeviceTag(index: 7, name: "event3")
        var events: [DispatchEvent] = []
        func send(_ phase: TouchPhase, _ finger: UInt32, _ x: Double, _ y: Double, _ ms: Int64) {
            let event = FingerEvent(
                phase: phase, finger: FingerID(finger), slot: Int32(finger), time: EventTime(microseconds: ms * 1000),
                contact: ContactState(x: Int32(x), y: Int32(y)))
            events += dispatcher.handle(
                .finger(MappedFingerEvent(event: event, position: Point(x: x, y: y))), device: device)
        }
        send(.down, 1, 10, 10, 0)
        send(.down, 2, 80, 80, 0)
        events += dispatcher.handle(.frameEnd(EventTime(microseconds: 0)), device: device)
        for step in 1...5 { send(.move, 1, 10 + Double(step) * 10, 10, Int64(step) * 10) }
        let routes = events.map(EventRoute.init)
        #expect(routes[0] == EventRoute(kind: .touch, scope: .region("pad"), device: "event3", queueKind: .essential))
        #expect(routes[1] == EventRoute(kind: .touch, scope: .unassigned, device: "event3", queueKind: .essential))
        #expect(routes[2] == EventRoute(kind: .frame, scope: .none, device: "event3", queueKind: .essential))
        let moves = routes.filter { if case .move = $0.queueKind { true } else { false } }
        // One finger, one key: the device's index and the decoder's finger id, the key the dispatcher used.
        #expect(moves.count == 5)
        #expect(moves.allSatisfy { $0.queueKind == .move(finger: FingerKey(device: 7, finger: FingerID(1))) })
        let changes = routes.filter {
            $0.kind == .gesture
                && $0.queueKind == .gestureChange(OutboundQueue.GestureChangeKey(region: "pad", gesture: "drag"))
        }
        #expect(!changes.isEmpty)
        // A client that filters on the pad, without unassigned fingers, gets finger 1 and the drag, not finger 2.
        let padOnly = Subscription(kinds: [.touch, .gesture], regions: ["pad"])
        #expect(routes.filter(padOnly.admits).count == routes.filter { $0.scope == .region("pad") }.count)
        #expect(!padOnly.admits(routes[1]))
        // The encoder tells each line's coalescing as the route does, whatever the keys selected.
        for position in events.indices {
            for fields: FieldSelection in [.all, []] {
                var writer = JSONWriter()
                let coalescing = DispatchEventEncoder.encode(events, at: position, selecting: fields, into: &writer)
                #expect(coalescing == routes[position].queueKind, "event \(position)")
            }
        }
    }
}
