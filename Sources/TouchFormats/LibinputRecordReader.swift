import TouchCore

/// Reads `libinput record` YAML (version 1): the first device's description (`evdev.name`, `id`, `codes`,
/// `absinfo`, `properties`) and its `events`, each frame a list of `[sec, usec, type, code, value]`.
/// Unknown keys are ignored, as libinput's own replay does.
public enum LibinputRecordReader {
    public static func parse(_ bytes: [UInt8], file: String, deviceIndex: Int = 0) throws(RecordingError) -> Recording {
        var parser = MiniYAMLParser(source: YAMLTextLines(text: String(decoding: bytes, as: UTF8.self)), file: file)
        let document = try parser.parseDocument()
        let (device, description) = try readDevice(document, index: deviceIndex, file: file)
        var events = EventItems(device: deviceIndex, file: file)
        for frame in device["events"]?.items ?? [] { try events.append(frame) }
        return Recording(
            format: .libinputRecord, description: description, descriptionSource: .embedded,
            events: events.events, version: "1")
    }

    /// The device at `index` in a parsed document and its description, checked in this order: the version, the
    /// device list, the device, its description.
    static func readDevice(_ document: YAMLNode, index deviceIndex: Int, file: String) throws(RecordingError)
        -> (device: YAMLNode, description: DeviceDescription)
    {
        guard let version = document["version"] else {
            throw RecordingError(
                .missingField, file: file, line: 1, field: "version",
                "not a libinput record file: no top-level 'version' key")
        }
        guard version.scalar == "1" else {
            throw RecordingError(
                .badDescription, file: file, line: version.line, field: "version",
                "unsupported libinput record version '\(version.scalar ?? "?")', expected 1")
        }
        guard let devices = document["devices"]?.items, !devices.isEmpty else {
            throw RecordingError(
                .missingField, file: file, line: document.line, field: "devices",
                "expected a non-empty 'devices' list")
        }
        guard deviceIndex < devices.count else {
            throw RecordingError(
                .missingField, file: file, line: document["devices"]!.line, field: "devices",
                "device \(deviceIndex) asked for, the file has \(devices.count)")
        }
        let device = devices[deviceIndex]
        let path = "devices[\(deviceIndex)]"
        guard let evdev = device["evdev"] else {
            throw RecordingError(
                .missingField, file: file, line: device.line, field: path + ".evdev",
                "expected the device's 'evdev' description")
        }
        return (device, try readDescription(evdev, path: path + ".evdev", file: file))
    }

    /// The events of one device's frames (items of its `events` list), taken a frame at a time.
    struct EventItems {
        let path: String
        let file: String
        var events: [InputEvent] = []
        private var frameIndex = 0

        init(device: Int, file: String) {
            path = "devices[\(device)]"
            self.file = file
        }

        mutating func append(_ frame: YAMLNode) throws(RecordingError) {
            defer { frameIndex += 1 }
            guard let list = frame["evdev"]?.items else { return }  // e.g. libinput's own event echo
            for item in list {
                let field = "\(path).events[\(frameIndex)].evdev"
                let numbers = try integers(item, count: 5, field: field, file: file)
                guard let type = UInt16(exactly: numbers[2]), let code = UInt16(exactly: numbers[3]),
                    let value = Int32(exactly: numbers[4]), EventCodeLimits.isKnown(type: type, code: code)
                else {
                    throw RecordingError(
                        .unknownCode, file: file, line: item.line, field: field,
                        "type \(numbers[2]) code \(numbers[3]) value \(numbers[4]) is not an evdev event")
                }
                guard let time = EventTime.checked(seconds: numbers[0], microseconds: numbers[1]) else {
                    throw RecordingError(
                        .badNumber, file: file, line: item.line, field: field,
                        "time \(numbers[0]).\(numbers[1]) out of range")
                }
                events.append(InputEvent(time: time, type: type, code: code, value: value))
            }
        }
    }

    private static func readDescription(_ evdev: YAMLNode, path: String, file: String) throws(RecordingError)
        -> DeviceDescription
    {
        var description = DeviceDescription(name: evdev["name"]?.scalar ?? "")
        if let id = evdev["id"] {
            let numbers = try integers(id, count: 4, field: path + ".id", file: file)
            description.id = DeviceID(
                bustype: UInt16(truncatingIfNeeded: numbers[0]), vendor: UInt16(truncatingIfNeeded: numbers[1]),
                product: UInt16(truncatingIfNeeded: numbers[2]), version: UInt16(truncatingIfNeeded: numbers[3]))
        }
        if case .mapping(let entries, _) = evdev["codes"] {
            for (key, value) in entries {
                guard let type = UInt16(key), type != EventType.syn else { continue }
                let codes = try integers(value, count: nil, field: "\(path).codes.\(key)", file: file)
                description.codes[type] = Set(codes.compactMap { UInt16(exactly: $0) })
            }
        }
        if case .mapping(let entries, _) = evdev["absinfo"] {
            for (key, value) in entries {
                guard let code = UInt16(key), code <= AbsCode.max else {
                    throw RecordingError(
                        .unknownCode, file: file, line: value.line, field: path + ".absinfo",
                        "'\(key)' is not an absolute axis code")
                }
                let numbers = try integers(value, count: 5, field: "\(path).absinfo.\(key)", file: file)
                description.absInfo[code] = AbsInfo(
                    minimum: Int32(clamping: numbers[0]), maximum: Int32(clamping: numbers[1]),
                    fuzz: Int32(clamping: numbers[2]), flat: Int32(clamping: numbers[3]),
                    resolution: Int32(clamping: numbers[4]))
                description.codes[EventType.abs, default: []].insert(code)
            }
        }
        if let properties = evdev["properties"] {
            let numbers = try integers(properties, count: nil, field: path + ".properties", file: file)
            description.properties = Set(numbers.compactMap { UInt16(exactly: $0) })
        }
        return description
    }

    private static func integers(_ node: YAMLNode, count: Int?, field: String, file: String) throws(RecordingError)
        -> [Int64]
    {
        guard let items = node.items else {
            throw RecordingError(
                .badDescription, file: file, line: node.line, field: field, "expected a list of numbers")
        }
        if let count, items.count != count {
            throw RecordingError(
                .wrongFieldCount, file: file, line: node.line, field: field,
                "expected \(count) numbers, found \(items.count)")
        }
        var numbers: [Int64] = []
        for item in items {
            guard let text = item.scalar, let value = NumberParsing.decimal(ArraySlice(text.utf8)) else {
                throw RecordingError(
                    .badNumber, file: file, line: item.line, field: field,
                    "'\(item.scalar ?? "?")' is not an integer")
            }
            numbers.append(value)
        }
        return numbers
    }
}
