import TouchCore

/// Writes an EDID 1.4 base block from the VESA layout (independently of `EDID`'s parser): header, PNP id,
/// product, serial, version, the size in cm, one detailed timing with the size in mm, a name descriptor and the
/// checksum. Sizes passed are those of real monitors' data sheets.
struct EDIDBuilder {
    var manufacturer = "DEL"
    var product: UInt16 = 0xA0C4
    var serial: UInt32 = 0x4C30_3141
    var name: String? = "DELL P2418HT"
    var widthMM = 527
    var heightMM = 296
    /// The base block's cm figures; nil: rounded from the mm.
    var centimetres: (Int, Int)?
    /// The detailed timing's own size bytes; false writes zeros there (a projector, some cheap panels).
    var timingHasSize = true

    func bytes() -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 128)
        block[0..<8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        let letters = manufacturer.utf8.map { UInt16($0 - 0x40) }
        let id = letters[0] << 10 | letters[1] << 5 | letters[2]
        block[8] = UInt8(id >> 8)
        block[9] = UInt8(id & 0xFF)
        block[10] = UInt8(product & 0xFF)
        block[11] = UInt8(product >> 8)
        for index in 0..<4 { block[12 + index] = UInt8((serial >> (8 * index)) & 0xFF) }
        block[16] = 10  // week
        block[17] = 28  // 2018
        block[18] = 1
        block[19] = 4
        block[20] = 0xA5  // digital, 8 bits, DisplayPort
        let (cmWidth, cmHeight) = centimetres ?? ((widthMM + 5) / 10, (heightMM + 5) / 10)
        block[21] = UInt8(cmWidth)
        block[22] = UInt8(cmHeight)
        // 1920x1080 at 148.5 MHz (CEA-861 VIC 16).
        let timing: [UInt8] = [0x02, 0x3A, 0x80, 0x18, 0x71, 0x38, 0x2D, 0x40, 0x58, 0x2C, 0x45, 0x00]
        block[54..<66] = timing[...]
        if timingHasSize {
            block[66] = UInt8(widthMM & 0xFF)
            block[67] = UInt8(heightMM & 0xFF)
            block[68] = UInt8((widthMM >> 8) << 4 | (heightMM >> 8))
        }
        block[71] = 0x1E
        if let name {
            block[72..<77] = [0, 0, 0, 0xFC, 0]
            var text = Array(name.utf8.prefix(13))
            if text.count < 13 { text.append(0x0A) }
            while text.count < 13 { text.append(0x20) }
            block[77..<90] = text[...]
        }
        block[90..<95] = [0, 0, 0, 0x10, 0]  // dummy descriptor
        block[108..<113] = [0, 0, 0, 0x10, 0]
        block[127] = UInt8((256 - Int(block[0..<127].reduce(0) { $0 + Int($1) }) % 256) % 256)
        return block
    }
}
