/// Kernel names of event types and codes, both ways, as libevdev's `libevdev_event_code_get_name` and
/// `libevdev_event_code_from_name` give them. Used to read symbolic logs (getevent -l, the kernel docs) and to
/// print readable output; the decoder itself works on numbers only.
public enum EventNames {
    private struct Key: Hashable {
        var type: UInt16
        var code: UInt16
    }

    private static let typeNames: [UInt16: String] = {
        var names: [UInt16: String] = [:]
        for entry in EventNameTable.entries where entry.type == nil && names[entry.code] == nil {
            names[entry.code] = entry.name
        }
        return names
    }()

    private static let codeNames: [Key: String] = {
        var names: [Key: String] = [:]
        for entry in EventNameTable.entries {
            guard let type = entry.type else { continue }
            let key = Key(type: type, code: entry.code)
            if names[key] == nil { names[key] = entry.name }
        }
        return names
    }()

    private static let byName: [String: (type: UInt16?, code: UInt16)] = {
        var table: [String: (type: UInt16?, code: UInt16)] = [:]
        for entry in EventNameTable.entries { table[entry.name] = (entry.type, entry.code) }
        return table
    }()

    /// `EV_ABS` for 3; nil for a type the kernel does not define.
    public static func typeName(_ type: UInt16) -> String? { typeNames[type] }

    /// `ABS_MT_SLOT` for (3, 0x2f); nil for an unnamed code.
    public static func codeName(type: UInt16, code: UInt16) -> String? { codeNames[Key(type: type, code: code)] }

    /// `INPUT_PROP_DIRECT` for 1.
    public static func propertyName(_ property: UInt16) -> String? { codeNames[Key(type: 0xffff, code: property)] }

    /// The type for `EV_ABS`, nil for an unknown name.
    public static func type(named name: String) -> UInt16? {
        guard let entry = byName[name], entry.type == nil else { return nil }
        return entry.code
    }

    /// The (type, code) for a code name such as `ABS_MT_POSITION_X` or `BTN_TOUCH`; nil for an unknown name.
    public static func code(named name: String) -> (type: UInt16, code: UInt16)? {
        guard let entry = byName[name], let type = entry.type, type != 0xffff else { return nil }
        return (type, entry.code)
    }

    /// `EV_ABS / ABS_MT_SLOT` style label, with hex numbers for what has no name.
    public static func label(type: UInt16, code: UInt16) -> String {
        let typeLabel = typeName(type) ?? "EV_0x" + String(type, radix: 16)
        let codeLabel = codeName(type: type, code: code) ?? "0x" + String(code, radix: 16)
        return typeLabel + " / " + codeLabel
    }
}
