extension DeviceDescription {
    /// The description with the fuzz libinput's udev rule took from the kernel put back: on a system with libinput,
    /// 90-libinput-fuzz-override.rules moves a touchscreen's axis fuzz into the property `LIBINPUT_FUZZ_<code in
    /// hex>` and sets the kernel's fuzz to 0 (so that the kernel does not filter before libinput's hysteresis).
    /// touchd reading EVIOCGABS then sees 0; this restores what the device declared, for the jitter filter.
    /// A property that is not a whole number from 1 to 2³¹ − 1, or an axis whose kernel fuzz is not 0, is left alone.
    public func restoringFuzz(fromUdev properties: [String: String]) -> DeviceDescription {
        var description = self
        for (code, axis) in absInfo where axis.fuzz == 0 {
            let hex = String(code, radix: 16)
            let name = "LIBINPUT_FUZZ_" + (hex.count < 2 ? "0" + hex : hex)
            guard let text = properties[name], let fuzz = Int32(text), fuzz > 0 else { continue }
            description.absInfo[code]?.fuzz = fuzz
        }
        return description
    }
}
