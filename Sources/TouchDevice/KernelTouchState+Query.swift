import TouchCore
import TouchPosix

extension KernelTouchState {
    /// Asks the kernel for the device's touch state now: one EVIOCGMTSLOTS an MT axis the device has and
    /// EVIOCGABS(ABS_MT_SLOT), or for a device without slots EVIOCGABS a position axis and EVIOCGKEY.
    public static func query(_ fd: Int32, description: DeviceDescription) throws(SystemError) -> KernelTouchState {
        let codes = description.codes[EventType.abs] ?? []
        if hasSlots(description) {
            var values: [UInt16: [Int32]] = [:]
            for code in slotAxes(of: description) {
                values[code] = try Posix.slotValues(fd, code: code, count: description.slotCount)
            }
            return .slots(values: values, current: try Posix.absValue(fd, code: AbsCode.mtSlot))
        }
        let pressure = codes.contains(AbsCode.pressure) ? try Posix.absValue(fd, code: AbsCode.pressure) : nil
        let touching = try Posix.isKeyDown(fd, code: KeyCode.touch)
        return .single(
            x: try Posix.absValue(fd, code: AbsCode.x), y: try Posix.absValue(fd, code: AbsCode.y),
            pressure: pressure, touching: touching)
    }
}
