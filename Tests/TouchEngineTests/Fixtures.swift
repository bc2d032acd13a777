import TouchCore
import TouchEngine
import TouchScene
import TouchTestKit
import TouchWire

/// The peers, scenes, device and settings the engine suites share, chosen so that answers can be worked out by
/// hand: the test touchscreen's axes run 0...4095 (4096 units) and the scene is 1024 × 1024, so a raw position
/// maps to exactly a quarter of itself ((raw − 0) / 4096 × 1024).
enum Fixtures {
    /// The group that may change the scene (`clients.sceneGroups`).
    static let sceneGroup: UInt32 = 990
    /// The group allowed to connect when subscribers are restricted (`clients.subscribeGroups`).
    static let subscribeGroup: UInt32 = 991

    static let root = PeerCredentials(pid: 100, uid: 0, gid: 0, groups: [0])
    /// An ordinary user: in no configured group.
    static let user = PeerCredentials(pid: 200, uid: 1000, gid: 1000, groups: [1000])
    /// A user in the scene group by supplementary group only.
    static let sceneMember = PeerCredentials(pid: 300, uid: 1001, gid: 1001, groups: [1001, sceneGroup])
    static let subscribeMember = PeerCredentials(pid: 400, uid: 1002, gid: 1002, groups: [1002, subscribeGroup])

    static func settings(
        maximum: Int = 32, reserved: Int = 4, queueBytes: Int = 1 << 20, maximumLineBytes: Int = 1 << 20,
        idleSeconds: Int64 = 30
    ) -> Engine.Settings {
        var settings = Engine.Settings()
        settings.access = ClientAccess(
            subscribeGroups: [], restrictsSubscribers: false, sceneGroups: [sceneGroup], maximum: maximum,
            reserved: reserved)
        settings.queueBytes = queueBytes
        settings.maximumLineBytes = maximumLineBytes
        settings.idleTimeout = EventTime.Duration(microseconds: idleSeconds * 1_000_000)
        return settings
    }

    /// `button` at (100, 200) size 200 × 100; `panel` at (500, 500) size 400 × 400 with `knob` at (50, 50) in it,
    /// so the knob covers 550...650 on both axes in scene coordinates.
    static let sceneJSON = """
        {"size": [1024, 1024], "regions": [
          {"id": "button", "frame": [100, 200, 200, 100]},
          {"id": "panel", "frame": [500, 500, 400, 400], "children": [{"id": "knob", "frame": [50, 50, 100, 100]}]}
        ]}
        """

    static func scene(_ json: String = sceneJSON) -> Scene {
        try! SceneLoader.parse(json, file: "test-scene.json")
    }

    /// `hold` (left half) has a long press; `fav` (right half) has a double tap and a single tap.
    static let gestureSceneJSON = """
        {"size": [1024, 1024], "regions": [
          {"id": "hold", "frame": [0, 0, 512, 1024], "gestures": ["long-press"]},
          {"id": "fav", "frame": [512, 0, 512, 1024],
           "gestures": [{"type": "tap", "taps": 2, "name": "double-tap"}, "tap"]}
        ]}
        """

    /// The test touchscreen as a live device named `event3`, mapped to the scene. Its jitter filter is off: these
    /// tests pin dispatched positions to the kernel's exactly; the filter's own engine test is `FilteredDeviceTests`.
    static func touchscreen(key: String = "event3", filter: JitterFilter = .off) -> DeviceSpec {
        DeviceSpec(
            key: .named(key), node: "/dev/input/" + key, description: TestDevices.touchscreen, filter: filter)
    }

    static func ms(_ milliseconds: Int64) -> EventTime { EventTime(microseconds: milliseconds * 1000) }
    static func seconds(_ seconds: Int64) -> EventTime { EventTime(microseconds: seconds * 1_000_000) }
}

/// One finger change per frame, so each call is one `SYN_REPORT` (the script's clock moves on 10 ms).
extension EventScript {
    @discardableResult
    func down(slot: Int32 = 0, id: Int32, x: Int32, y: Int32) -> EventScript {
        self.slot(slot).trackingID(id).position(x: x, y: y).report()
    }

    @discardableResult
    func move(slot: Int32 = 0, x: Int32, y: Int32) -> EventScript {
        self.slot(slot).position(x: x, y: y).report()
    }

    @discardableResult
    func up(slot: Int32 = 0) -> EventScript {
        self.slot(slot).trackingID(-1).report()
    }
}
