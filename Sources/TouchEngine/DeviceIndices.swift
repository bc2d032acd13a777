/// Hands out device indices (they key each device's fingers in the dispatcher and name replay devices). They
/// count up and wrap, skipping the ones in use: a touchscreen that reconnects every few seconds for days must not
/// run a 16-bit counter into an overflow trap (65,536 hotplugs).
public struct DeviceIndices {
    public init() {}
    private var next: UInt16 = 0

    /// The next index not in use; nil only when all 65,536 are.
    public mutating func allocate(inUse: (UInt16) -> Bool) -> UInt16? {
        for _ in 0...Int(UInt16.max) {
            let candidate = next
            next &+= 1
            if !inUse(candidate) { return candidate }
        }
        return nil
    }
}
