import CShims
import TouchCore
import TouchPosix

#if canImport(Glibc)
    import Glibc
#endif

extension KernelTouchState {
    /// Asks the kernel for the device's touch state now: one EVIOCGMTSLOTS an MT axis the device has and
    /// EVIOCGABS(ABS_MT_SLOT), or for a device without slots EVIOCGABS a position axis and EVIOCGKEY.
    public static func query(_ fd: Int32, description: DeviceDescription) throws(SystemError) -> KernelTouchState {
        let codes = description.codes[EventType.abs] ?? []
        if hasSlots(description) {
            let count = description.slotCount
            var values: [UInt16: [Int32]] = [:]
            for code in slotAxes(of: description) {
                var axis = [Int32](repeating: 0, count: count)
                let status = axis.withUnsafeMutableBufferPointer {
                    touchd_evdev_mt_slots(fd, UInt32(code), $0.baseAddress, Int32(count))
                }
                guard status == 0 else { throw SystemError("EVIOCGMTSLOTS") }
                values[code] = axis
            }
            return .slots(values: values, current: try absValue(fd, AbsCode.mtSlot))
        }
        let pressure = codes.contains(AbsCode.pressure) ? try absValue(fd, AbsCode.pressure) : nil
        let touching = touchd_evdev_key_down(fd, UInt32(KeyCode.touch))
        guard touching >= 0 else { throw SystemError("EVIOCGKEY") }
        return .single(
            x: try absValue(fd, AbsCode.x), y: try absValue(fd, AbsCode.y), pressure: pressure, touching: touching == 1)
    }

    private static func absValue(_ fd: Int32, _ code: UInt16) throws(SystemError) -> Int32 {
        var value: Int32 = 0
        guard touchd_evdev_abs_value(fd, UInt32(code), &value) == 0 else { throw SystemError("EVIOCGABS") }
        return value
    }
}
