import TouchCore
import TouchFormats

/// Recordings of taps at known targets on a panel whose error is a known matrix, for calibration's tests.
///
/// `matrix` is what the calibration should find: it takes the device's normalized square to the display's. So the
/// tap at a target `t` (display fractions) is where the device reads `matrix⁻¹(t)`, in units `min + n·(max - min +
/// 1)` (libinput's normalization undone), plus up to `jitter` units of noise in each of a few frames, rounded to
/// whole units as a kernel reports them. Taps are `gap` apart; with a `lead`, the recording opens with an empty
/// frame and the first tap comes that long after it (a replay that starts on a subscription then gives the client
/// time to show its first target).
public enum CalibrationRecordings {
    public static func taps(
        matrix: CalibrationMatrix, targets: [(x: Double, y: Double)],
        device: DeviceDescription = TestDevices.touchscreen,
        jitter: Double = 2, framesPerTap: Int = 4, seed: UInt64 = 27,
        gap: EventTime.Duration = .milliseconds(600), lead: EventTime.Duration? = nil
    ) -> [InputEvent] {
        let xAxis = device.xAxis!
        let yAxis = device.yAxis!
        var random = SeededRandom(seed: seed)
        let script = EventScript()
        if let lead {
            script.report()
            script.time = script.time + lead
        }
        for (index, target) in targets.enumerated() {
            let touch = inverse(matrix, target)
            let x = Double(xAxis.minimum) + touch.x * Double(Int64(xAxis.maximum) - Int64(xAxis.minimum) + 1)
            let y = Double(yAxis.minimum) + touch.y * Double(Int64(yAxis.maximum) - Int64(yAxis.minimum) + 1)
            script.slot(0).trackingID(Int32(100 + index))
            for frame in 0..<framesPerTap {
                let jx = jitter > 0 ? random.double(in: -jitter...jitter) : 0
                let jy = jitter > 0 ? random.double(in: -jitter...jitter) : 0
                script.position(x: Int32((x + jx).rounded()), y: Int32((y + jy).rounded()))
                if frame == 0 { script.key(KeyCode.touch, 1) }
                script.report()
            }
            script.trackingID(-1).key(KeyCode.touch, 0).report()
            script.time = script.time + gap
        }
        return script.events
    }

    /// The same as evemu text, as `touchd record` writes it.
    public static func evemu(
        matrix: CalibrationMatrix, targets: [(x: Double, y: Double)],
        device: DeviceDescription = TestDevices.touchscreen,
        jitter: Double = 2, seed: UInt64 = 27, gap: EventTime.Duration = .milliseconds(600),
        lead: EventTime.Duration? = nil
    ) -> String {
        EvemuWriter.write(
            description: device,
            events: taps(
                matrix: matrix, targets: targets, device: device, jitter: jitter, seed: seed, gap: gap, lead: lead),
            timeBase: .relativeToFirstEvent)
    }

    /// `m⁻¹(p)`: the device position that `m` takes to `p`.
    public static func inverse(_ m: CalibrationMatrix, _ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let determinant = m.a * m.e - m.b * m.d
        let x = p.x - m.c
        let y = p.y - m.f
        return ((m.e * x - m.b * y) / determinant, (-m.d * x + m.a * y) / determinant)
    }
}
