/// mtdev's defuzzing of protocol A contacts (match.c's `defuzz`, the kernel's `input_defuzz_abs_event`): libinput
/// reads a protocol A panel through mtdev, which filters each matched contact's position before libinput's own
/// hysteresis sees it. The kernel never filters protocol A (it has no slot to compare with), so without this stage
/// touchd would pass a protocol A panel's noise that libinput's users never see.
///
/// Per axis, against the contact's previous filtered value: a change under half the fuzz is dropped, one under the
/// fuzz moves a quarter of the way, one under twice the fuzz half of it, a larger one is taken whole. Integer
/// arithmetic as mtdev's, so each change of position comes out as mtdev hands it to libinput (mtdev also filters
/// frames that repeat a position, which touchd does not: docs/decoding.md, "Jitter").
public struct MtdevDefuzz: Equatable, Sendable {
    public var fuzzX: Int32
    public var fuzzY: Int32

    public init(fuzzX: Int32, fuzzY: Int32) {
        self.fuzzX = fuzzX
        self.fuzzY = fuzzY
    }

    /// The fuzz mtdev uses for a device on a system with libinput: libinput's udev rule has set the kernel's fuzz
    /// to 0 (90-libinput-fuzz-override.rules), and mtdev then takes its default, range / 250.
    public init(device: DeviceDescription) {
        self.init(
            fuzzX: device.xAxis.map(Self.defaultFuzz(of:)) ?? 0, fuzzY: device.yAxis.map(Self.defaultFuzz(of:)) ?? 0)
    }

    /// mtdev's default fuzz for an axis that declares none: its range over SN_COORD (250).
    public static func defaultFuzz(of axis: AbsInfo) -> Int32 {
        Int32(clamping: (Int64(axis.maximum) - Int64(axis.minimum)) / 250)
    }

    public var isActive: Bool { fuzzX > 0 || fuzzY > 0 }

    public func apply(x: Int32, y: Int32, previous: (x: Int32, y: Int32)) -> (x: Int32, y: Int32) {
        (Self.defuzz(x, previous: previous.x, fuzz: fuzzX), Self.defuzz(y, previous: previous.y, fuzz: fuzzY))
    }

    /// One axis, in 64 bits so that no kernel value can overflow; C's division truncates toward zero, as Swift's.
    public static func defuzz(_ value: Int32, previous: Int32, fuzz: Int32) -> Int32 {
        guard fuzz > 0 else { return value }
        let value = Int64(value)
        let old = Int64(previous)
        let fuzz = Int64(fuzz)
        if value > old - fuzz / 2 && value < old + fuzz / 2 { return Int32(old) }
        if value > old - fuzz && value < old + fuzz { return Int32((old * 3 + value) / 4) }
        if value > old - fuzz * 2 && value < old + fuzz * 2 { return Int32((old + value) / 2) }
        return Int32(value)
    }
}
