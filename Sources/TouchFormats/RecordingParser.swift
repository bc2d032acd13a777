import TouchCore

/// A whole recording's bytes, already read, to a `Recording`: each format's reader, chosen by the format.
public enum RecordingParser {
    public static func parse(
        _ bytes: [UInt8], format: RecordingFormat, file: String, options: ReadOptions = ReadOptions()
    ) throws(RecordingError) -> Recording {
        // A text file may start with a UTF-8 byte order mark; a raw dump's first bytes are a time, kept whole.
        let bytes = format == .raw ? bytes : ByteOrderMark.stripped(bytes)
        switch format {
        case .evemu:
            return try EvemuReader.parse(bytes, file: file, options: options)
        case .libinputRecord:
            return try LibinputRecordReader.parse(bytes, file: file)
        case .raw:
            return Recording(
                format: .raw, description: DeviceDescription(), descriptionSource: .inferred,
                events: try RawEventReader.parse(bytes, file: file))
        case .getevent:
            let parsed = try GeteventReader.parse(bytes, file: file, options: options)
            return Recording(
                format: .getevent, description: DeviceDescription(), descriptionSource: .inferred,
                events: parsed.events, skipped: parsed.skipped)
        case .evtest:
            return try EvtestReader.parse(bytes, file: file, options: options)
        }
    }

    public static func unknownFormat(_ path: String) -> RecordingError {
        RecordingError(
            .unknownFormat, file: path,
            "not a recording touchd knows: expected evemu text, libinput record YAML, getevent or evtest text, or raw input_event data"
        )
    }
}

/// A UTF-8 byte order mark (EF BB BF) some editors put at the start of a text file: not part of the text.
public enum ByteOrderMark {
    public static let bytes: [UInt8] = [0xEF, 0xBB, 0xBF]

    public static func stripped(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: Self.bytes) ? Array(bytes.dropFirst(3)) : bytes
    }
}
