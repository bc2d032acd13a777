import TouchCore
import TouchJSON
import TouchScene

/// Builds the server's own lines (docs/protocol.md): hello, replies, notices.
public enum ServerMessages {
    public struct DeviceSummary: Equatable, Sendable {
        public var key: String
        public var name: String
        public var node: String
        public var slots: Int
        public var touchProtocol: String
        /// The position axes, whose range and resolution a client needs to read `raw_x` and `raw_y` (a
        /// calibration normalizes them as libinput does, and measures on the glass in mm).
        public var xAxis: AbsInfo?
        public var yAxis: AbsInfo?
        /// What touchd does after the device's calibration matrix (its rule's `rotate`, `invertX`, `invertY`): a
        /// calibrating client fits the whole transform and writes the part before these.
        public var rotation = 0
        public var invertX = false
        public var invertY = false
        /// Touches cancelled as stuck so far (the `devices` reply only: a hello or a device-added has none).
        public var stuckCancels: Int?

        public init(
            key: String, name: String, node: String, slots: Int, touchProtocol: String, xAxis: AbsInfo? = nil,
            yAxis: AbsInfo? = nil, rotation: Int = 0, invertX: Bool = false, invertY: Bool = false
        ) {
            self.key = key
            self.name = name
            self.node = node
            self.slots = slots
            self.touchProtocol = touchProtocol
            self.xAxis = xAxis
            self.yAxis = yAxis
            self.rotation = rotation
            self.invertX = invertX
            self.invertY = invertY
        }
    }

    public static func hello(
        server: String, protocolVersion: Int, devices: [DeviceSummary], scene: Scene, sceneVersion: Int,
        permissions: Permissions
    ) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("type", "hello")
        writer.field("protocol", protocolVersion)
        writer.field("server", server)
        writer.beginArray("devices")
        for device in devices { writeDevice(device, into: &writer) }
        writer.endArray()
        writer.key("scene")
        writeSceneSummary(scene, version: sceneVersion, into: &writer)
        writer.key("permissions")
        writer.beginObject()
        writer.field("subscribe", permissions.subscribe)
        writer.field("scene", permissions.changeScene)
        writer.endObject()
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    /// `{"type":"reply","id":…,"ok":true, extra…}`
    public static func ok(id: RequestID?, _ extra: (inout JSONWriter) -> Void = { _ in }) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("type", "reply")
        writeID(id, into: &writer)
        writer.field("ok", true)
        extra(&writer)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    public static func error(id: RequestID?, _ error: RequestError) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("type", "reply")
        writeID(id, into: &writer)
        writer.field("ok", false)
        writer.key("error")
        writer.beginObject()
        writer.field("code", error.code.rawValue)
        writer.field("message", error.message)
        writer.endObject()
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    /// The last line a client gets before touchd closes its connection.
    public static func goodbye(code: String, message: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("type", "goodbye")
        writer.field("code", code)
        writer.field("message", message)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    public static func deviceAdded(_ device: DeviceSummary) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("type", "device-added")
        writer.key("device")
        writeDevice(device, into: &writer)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    public static func deviceRemoved(key: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("type", "device-removed")
        writer.field("device", key)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    /// `regions`: the scene's region count when the caller knows it (counting walks the whole tree).
    public static func sceneChanged(_ scene: Scene, version: Int, source: String, regions: Int? = nil) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("type", "scene-changed")
        writer.field("source", source)
        writer.key("scene")
        writeSceneSummary(scene, version: version, regions: regions, into: &writer)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    public static func writeDevice(_ device: DeviceSummary, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("device", device.key)
        writer.field("name", device.name)
        writer.field("node", device.node)
        writer.field("slots", device.slots)
        writer.field("protocol", device.touchProtocol)
        for (name, axis) in [("x", device.xAxis), ("y", device.yAxis)] {
            guard let axis else { continue }
            writer.key(string: name)
            writer.beginObject()
            writer.field("min", Int(axis.minimum))
            writer.field("max", Int(axis.maximum))
            writer.field("resolution", Int(axis.resolution))
            writer.endObject()
        }
        // Only when set, so the lines of a device without them stay as they were.
        if device.rotation != 0 { writer.field("rotate", device.rotation) }
        if device.invertX { writer.field("invert_x", true) }
        if device.invertY { writer.field("invert_y", true) }
        if let stuckCancels = device.stuckCancels { writer.field("stuck_cancels", stuckCancels) }
        writer.endObject()
    }

    static func writeSceneSummary(_ scene: Scene, version: Int, regions: Int? = nil, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("version", version)
        writer.field("width", scene.width)
        writer.field("height", scene.height)
        writer.field("regions", regions ?? scene.regionCount)
        writer.endObject()
    }

    static func writeID(_ id: RequestID?, into writer: inout JSONWriter) {
        switch id {
        case .string(let text)?: writer.field("id", text)
        case .integer(let integer)?: writer.field("id", integer)
        case nil: break
        }
    }
}
