import TouchCore
import TouchEngine
import TouchScene
import TouchWire

/// One device feeding the dispatcher: a live evdev device or a replayed recording. Each has its own decoder and
/// mapping (the pipeline), and a tag that names it in every event.
final class InputSource {
    let tag: DeviceTag
    let node: String
    let description: DeviceDescription
    let mappingSettings: CoordinateMapping.Settings
    var pipeline: TouchPipeline
    /// The loop registration of a live device's descriptor.
    var loopToken: UInt64?
    var evdev: EvdevReading?

    init(
        tag: DeviceTag, node: String, description: DeviceDescription, mappingSettings: CoordinateMapping.Settings,
        sceneSize: (Double, Double)
    ) throws(CoordinateMapping.Error) {
        self.tag = tag
        self.node = node
        self.description = description
        self.mappingSettings = mappingSettings
        var settings = mappingSettings
        settings.outputSize = sceneSize
        // Finger ids unique across devices: each device counts in its own range (2^24 touches each).
        var decoderOptions = TouchDecoder.Options()
        decoderOptions.firstFingerID = UInt32(tag.index) << 24 + 1
        pipeline = TouchPipeline(
            decoder: TouchDecoder(description: description, options: decoderOptions),
            mapping: try CoordinateMapping(device: description, settings: settings))
    }

    /// Follows a new scene size; the decoder and its live fingers stay.
    func resize(to sceneSize: (Double, Double)) {
        var settings = mappingSettings
        settings.outputSize = sceneSize
        if let mapping = try? CoordinateMapping(device: description, settings: settings) { pipeline.mapping = mapping }
    }

    var summary: ServerMessages.DeviceSummary {
        ServerMessages.DeviceSummary(
            key: tag.name, name: description.name, node: node,
            slots: description.touchProtocol == .slotted ? description.slotCount : 1,
            touchProtocol: description.touchProtocol.rawValue)
    }
}

/// What the daemon needs from a live device reader (TouchDevice's EvdevDevice), kept as a protocol so the
/// daemon's wiring does not depend on libevdev's types.
protocol EvdevReading: AnyObject {
    var fd: Int32 { get }
    /// Reads what is pending. `resync` is set when a SYN_DROPPED was resolved: the caller hands the snapshot to
    /// the pipeline. `gone` means the device was removed (ENODEV) or failed.
    func readEvents(into events: inout [InputEvent]) -> (resync: DeviceSnapshot?, gone: Bool)
}
