import CShims
import TouchPosix

/// The evdev ioctls touchd makes itself, for `KernelTouchState.query` after a drop (libevdev makes the others, in
/// `EvdevDevice` and `UinputTouchscreen`).
extension Posix {
    /// EVIOCGMTSLOTS: the value of MT axis `code` in each of the first `count` slots.
    static func slotValues(_ fd: Int32, code: UInt16, count: Int) throws(SystemError) -> [Int32] {
        var values = [Int32](repeating: 0, count: count)
        let status = values.withUnsafeMutableBufferPointer {
            touchd_evdev_mt_slots(fd, UInt32(code), $0.baseAddress, Int32(count))
        }
        guard status == 0 else { throw SystemError("EVIOCGMTSLOTS") }
        return values
    }

    /// EVIOCGABS: the axis's value now.
    static func absValue(_ fd: Int32, code: UInt16) throws(SystemError) -> Int32 {
        var value: Int32 = 0
        guard touchd_evdev_abs_value(fd, UInt32(code), &value) == 0 else { throw SystemError("EVIOCGABS") }
        return value
    }

    /// EVIOCGKEY: whether key `code` is down now.
    static func isKeyDown(_ fd: Int32, code: UInt16) throws(SystemError) -> Bool {
        let down = touchd_evdev_key_down(fd, UInt32(code))
        guard down >= 0 else { throw SystemError("EVIOCGKEY") }
        return down == 1
    }
}
