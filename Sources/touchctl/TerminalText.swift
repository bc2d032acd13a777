import TouchPosix

/// Text from the daemon made safe for a terminal: control characters (an escape sequence in a region id could
/// retitle the window or move the cursor) are shown as `\u{…}` instead of being sent to it. Everything touchctl
/// prints that came from the daemon goes through this or `terminalSafeJSON`.
func printable(_ text: String) -> String { ShownText.printable(text) }

/// JSON text (a line from the daemon, a scene) with every control character written as a `\u00XX` escape: the
/// same JSON where the controls stood inside strings (JSON writers leave DEL and the C1 controls raw), and no
/// control byte reaches the terminal where a peer sent one raw. Other bytes pass unchanged.
func terminalSafeJSON(_ bytes: [UInt8]) -> [UInt8] {
    // In UTF-8 the C1 controls are 0xC2 0x80…0x9F; a 0xC2 never occurs inside another character.
    func isC1(at index: Int) -> Bool {
        bytes[index] == 0xC2 && index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1])
    }
    guard bytes.indices.contains(where: { bytes[$0] < 0x20 || bytes[$0] == 0x7F || isC1(at: $0) }) else {
        return bytes
    }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + 16)
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F {
            result += escape(UInt32(byte))
        } else if isC1(at: index) {
            result += escape(UInt32(bytes[index + 1]))
            index += 1
        } else {
            result.append(byte)
        }
        index += 1
    }
    return result
}

private func escape(_ value: UInt32) -> [UInt8] {
    let hex = Array("0123456789abcdef".utf8)
    return Array("\\u00".utf8) + [hex[Int(value >> 4)], hex[Int(value & 0xF)]]
}
