import TouchCore
import TouchScene

/// Feeds a dispatcher with finger events in scene coordinates, times in milliseconds, and keeps a readable log.
final class DispatchHarness {
    let dispatcher: Dispatcher
    let device = DeviceTag(index: 0, name: "test")
    var events: [DispatchEvent] = []

    init(_ json: String, options: Dispatcher.Options = Dispatcher.Options()) {
        dispatcher = Dispatcher(scene: try! SceneLoader.parse(json, file: "test.json"), options: options)
    }

    func send(_ phase: TouchPhase, _ finger: UInt32, _ x: Double, _ y: Double, at ms: Int64) {
        let event = FingerEvent(
            phase: phase, finger: FingerID(finger), slot: Int32(finger), time: EventTime(microseconds: ms * 1000),
            contact: ContactState(x: Int32(x), y: Int32(y)))
        events += dispatcher.handle(
            .finger(MappedFingerEvent(event: event, position: Point(x: x, y: y))), device: device)
    }

    func frame(at ms: Int64) {
        events += dispatcher.handle(.frameEnd(EventTime(microseconds: ms * 1000)), device: device)
    }

    func advance(to ms: Int64) { events += dispatcher.advance(to: EventTime(microseconds: ms * 1000)) }

    func replace(_ json: String, at ms: Int64) {
        events += dispatcher.replaceScene(
            try! SceneLoader.parse(json, file: "new.json"), at: EventTime(microseconds: ms * 1000))
    }

    var touches: [DispatchedTouch] { events.compactMap { if case .touch(let t) = $0 { t } else { nil } } }

    /// `down 1 square2`, `tap ended panel`, `moved square1`, frames left out.
    var log: [String] {
        events.compactMap { event in
            switch event {
            case .touch(let t): "\(t.phase.rawValue) \(t.finger) \(t.region ?? "-")"
            case .gesture(let region, let g): "\(g.name) \(g.event.rawValue) \(region)"
            case .regionMoved(let region, _, _): "moved \(region)"
            case .regionScrolled(let region, let offset, _): "scrolled \(region) \(offset.x) \(offset.y)"
            case .frame: nil
            }
        }
    }

    func clear() { events.removeAll() }
}
