/// What a monitor says about itself in its EDID (VESA E-EDID 1.3/1.4 base block), as far as choosing the monitor a
/// touchscreen lies on needs: who made it, which model, its name and its physical size.
///
/// Layout of the 128-byte base block: bytes 0–7 the fixed header `00 FF FF FF FF FF FF 00`; 8–9 the manufacturer's
/// PNP id (three letters of five bits each, big-endian); 10–11 the product code (little-endian); 12–15 the serial
/// number; 21–22 the maximum image size in cm (0 when unknown, or an aspect ratio when only one is set); 54–125 four
/// 18-byte descriptors, the first a detailed timing whose bytes 12–14 give the image size in mm; a descriptor whose
/// first two bytes are zero carries a tag in byte 3 (0xFC monitor name, 0xFF serial text) and text in 5–17;
/// byte 127 makes the block's sum 0 modulo 256.
public struct EDID: Equatable, Sendable {
    /// Three letters (PNP id), e.g. "DEL", "SAM", "BOE".
    public var manufacturer: String
    public var product: UInt16
    public var serial: UInt32
    /// The monitor name descriptor (0xFC), when there is one.
    public var name: String?
    /// Physical size in mm: the detailed timing's when it has one, else the base block's cm figures times ten.
    public var widthMM: Int?
    public var heightMM: Int?

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case tooShort(Int)
        case badHeader
        case badChecksum

        public var description: String {
            switch self {
            case .tooShort(let count): "an EDID has at least 128 bytes, this one \(count)"
            case .badHeader: "the EDID does not start with 00 FF FF FF FF FF FF 00"
            case .badChecksum: "the EDID's base block does not sum to 0 modulo 256"
            }
        }
    }

    static let header: [UInt8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]

    public init(
        manufacturer: String, product: UInt16, serial: UInt32 = 0, name: String? = nil, widthMM: Int? = nil,
        heightMM: Int? = nil
    ) {
        self.manufacturer = manufacturer
        self.product = product
        self.serial = serial
        self.name = name
        self.widthMM = widthMM
        self.heightMM = heightMM
    }

    /// Parses the base block of `bytes` (extension blocks after it are ignored).
    public init(bytes: [UInt8]) throws(ParseError) {
        guard bytes.count >= 128 else { throw .tooShort(bytes.count) }
        guard Array(bytes[0..<8]) == Self.header else { throw .badHeader }
        guard bytes[0..<128].reduce(UInt8(0), &+) == 0 else { throw .badChecksum }
        let id = UInt16(bytes[8]) << 8 | UInt16(bytes[9])
        manufacturer = String(
            decoding: [(id >> 10) & 0x1F, (id >> 5) & 0x1F, id & 0x1F].map { UInt8(truncatingIfNeeded: $0) + 0x40 },
            as: UTF8.self)
        product = UInt16(bytes[10]) | UInt16(bytes[11]) << 8
        serial = UInt32(bytes[12]) | UInt32(bytes[13]) << 8 | UInt32(bytes[14]) << 16 | UInt32(bytes[15]) << 24
        name = nil
        widthMM = nil
        heightMM = nil
        for start in stride(from: 54, to: 126, by: 18) {
            let descriptor = bytes[start..<start + 18]
            if bytes[start] != 0 || bytes[start + 1] != 0 {
                // A detailed timing: the first one is the preferred mode, whose image size is the panel's.
                if widthMM == nil {
                    let width = Int(bytes[start + 12]) | Int(bytes[start + 14] >> 4) << 8
                    let height = Int(bytes[start + 13]) | Int(bytes[start + 14] & 0x0F) << 8
                    if width > 0, height > 0 { (widthMM, heightMM) = (width, height) }
                }
            } else if bytes[start + 3] == 0xFC {
                name = Self.text(descriptor.dropFirst(5))
            }
        }
        // Both figures, or neither: one alone is an aspect ratio (EDID 1.4), not a size.
        if widthMM == nil, bytes[21] > 0, bytes[22] > 0 {
            (widthMM, heightMM) = (Int(bytes[21]) * 10, Int(bytes[22]) * 10)
        }
    }

    /// Descriptor text: printable ASCII up to the line feed that ends it (or a NUL: some monitors pad with them),
    /// trailing spaces dropped.
    static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x00 }.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }
        let text = String(decoding: line, as: UTF8.self)
        let trimmed = String(text.reversed().drop { $0 == " " }.reversed())
        return trimmed.isEmpty ? nil : trimmed
    }
}
