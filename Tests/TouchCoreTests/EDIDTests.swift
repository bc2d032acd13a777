import Testing
import TouchCore

@Suite("EDID base block")
struct EDIDTests {
    /// An LG UltraGear 32" (1440p, 144 Hz) as published in a public repository's test data, serial zeroed. Its
    /// data sheet size is 697.3 x 392.2 mm; the base block says 70 x 39 cm; PNP id GSM is LG's.
    static let lgUltraGear: [UInt8] = hex(
        "00ffffffffffff001e6d6577000000000621010380462778eacdb4a55650a127"
            + "135054210800d1c061400101010101010101010101016fc200a0a0a055503020"
            + "3500b9882100001a000000fd0030901efa41000a202020202020000000fc004c"
            + "4720554c545241474541520a000000ff003030303030303030303030300a0132")

    /// The EDID qemu 7.2 gives a guest's first virtio-vga output at `xres=1920,yres=1080` (hw/display/edid-generate.c,
    /// read from the VM's /sys/class/drm/card0-Virtual-1/edid): Red Hat's PNP id, product 0x1234, "QEMU Monitor",
    /// 1920 x 1080 at qemu's 100 dpi, 487 x 274 mm.
    static let qemu: [UInt8] = hex(
        "00ffffffffffff004914341200000000"
            + "2a180104a5301b7806ee91a3544c9926"
            + "0f5054210800e1c0d1c0d100a940b300"
            + "950081808140d25480a072382540e039"
            + "5540e71211000018000000f7000a0040"
            + "82002820000000000000000000fd0032"
            + "7d1ea0ff010a202020202020000000fc"
            + "0051454d55204d6f6e69746f720a01b0")

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test("a real monitor's EDID: LG, its product code, its name and its size in mm")
    func realMonitor() throws {
        let edid = try EDID(bytes: Self.lgUltraGear)
        #expect(edid.manufacturer == "GSM")
        #expect(edid.product == 0x7765)
        #expect(edid.name == "LG ULTRAGEAR")
        #expect(edid.widthMM == 697 && edid.heightMM == 392)
    }

    @Test("qemu's EDID, as a guest's kernel reads it")
    func qemuMonitor() throws {
        #expect(Self.qemu.count == 128)
        let edid = try EDID(bytes: Self.qemu)
        #expect(edid == EDID(manufacturer: "RHT", product: 0x1234, name: "QEMU Monitor", widthMM: 487, heightMM: 274))
    }

    @Test(
        "sizes of real monitors from the detailed timing",
        arguments: [
            ("DEL", "DELL P2418HT", 527, 296),  // 23.8" touch monitor
            ("IVM", "PL2252MT", 477, 268),  // iiyama ProLite T2252MTS, 21.5"
            ("LEN", "LEN X1 YOGA", 302, 188),  // a 14" 16:10 laptop panel
            ("SAM", "LU28E590DS", 621, 341),  // 28" 4K
        ])
    func generated(manufacturer: String, name: String, width: Int, height: Int) throws {
        let builder = EDIDBuilder(
            manufacturer: manufacturer, product: 0x1234, name: name, widthMM: width, heightMM: height)
        let edid = try EDID(bytes: builder.bytes())
        #expect(
            edid
                == EDID(
                    manufacturer: manufacturer, product: 0x1234, serial: builder.serial, name: name, widthMM: width,
                    heightMM: height))
    }

    @Test("without a size in the timing, the base block's centimetres; one of them alone is an aspect ratio")
    func centimetreFallback() throws {
        var builder = EDIDBuilder(widthMM: 527, heightMM: 296)
        builder.timingHasSize = false
        let edid = try EDID(bytes: builder.bytes())
        #expect(edid.widthMM == 530 && edid.heightMM == 300)
        builder.centimetres = (0x4F, 0)  // EDID 1.4: landscape aspect ratio, no size
        let ratio = try EDID(bytes: builder.bytes())
        #expect(ratio.widthMM == nil && ratio.heightMM == nil)
    }

    @Test("a wrong header, a wrong checksum, a short blob are refused; extension blocks are ignored")
    func refusals() throws {
        var bytes = EDIDBuilder().bytes()
        #expect(throws: EDID.ParseError.tooShort(127)) { try EDID(bytes: Array(bytes.prefix(127))) }
        bytes[70] ^= 0x01
        #expect(throws: EDID.ParseError.badChecksum) { try EDID(bytes: bytes) }
        bytes[70] ^= 0x01
        bytes[1] = 0
        #expect(throws: EDID.ParseError.badHeader) { try EDID(bytes: bytes) }
        bytes[1] = 0xFF
        let withExtension = bytes + [UInt8](repeating: 0x77, count: 128)
        #expect(try EDID(bytes: withExtension).name == "DELL P2418HT")
    }

    @Test("a name padded with NUL bytes instead of a line feed ends at the first NUL; an all-NUL name is no name")
    func nulPaddedName() throws {
        var bytes = EDIDBuilder().bytes()
        let descriptor = try #require(
            stride(from: 54, to: 126, by: 18).first { bytes[$0] == 0 && bytes[$0 + 1] == 0 && bytes[$0 + 3] == 0xFC })
        func withName(_ text: [UInt8]) throws -> EDID {
            bytes[(descriptor + 5)..<(descriptor + 18)] = (text + [UInt8](repeating: 0, count: 13 - text.count))[...]
            bytes[127] = 0
            bytes[127] = UInt8((256 - bytes.reduce(0) { ($0 + Int($1)) % 256 }) % 256)
            return try EDID(bytes: bytes)
        }
        #expect(try withName(Array("ok".utf8)).name == "ok")
        #expect(try withName([]).name == nil)
    }
}
