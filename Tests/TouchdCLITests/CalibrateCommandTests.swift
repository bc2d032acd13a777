import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchTestKit

/// `touchd calibrate` on recordings generated from a known matrix: it must find the matrix again.
@Suite(
    "touchd calibrate recovers known matrices from generated taps",
    .enabled(if: FileManager.default.isExecutableFile(atPath: touchdBinary), "touchd must be built first"))
struct CalibrateCommandTests {
    /// xinput_calibrator's five places on a 1920×1080 display, and four more (edges' middles) for a tighter fit.
    static let places: [(x: Double, y: Double)] = [
        (0.125, 0.125), (0.875, 0.125), (0.125, 0.875), (0.875, 0.875), (0.5, 0.5), (0.5, 0.125), (0.125, 0.5),
        (0.875, 0.5), (0.5, 0.875),
    ]

    static func targetList(_ places: [(x: Double, y: Double)]) -> String {
        places.map { "\($0.x * 1920),\($0.y * 1080)" }.joined(separator: " ")
    }

    /// Writes the recording, runs `touchd calibrate` on it; status, stdout, stderr.
    static func calibrate(
        _ evemu: String, targets: String, extra: [String] = ["--size", "1920x1080"]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let path = NSTemporaryDirectory() + "touchd-calibrate-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).evemu"
        try evemu.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try runTouchd(["calibrate", path, "--targets", targets] + extra)
    }

    static func printedMatrix(_ stdout: String) -> [Double]? {
        let prefix = "LIBINPUT_CALIBRATION_MATRIX=\""
        guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return line.dropFirst(prefix.count).dropLast().split(separator: " ").compactMap { Double($0) }
    }

    static let cases: [(name: String, matrix: CalibrationMatrix)] = [
        ("rotated 90", CalibrationMatrix(0, -1, 1, 1, 0, 0)),
        ("rotated 180", CalibrationMatrix(-1, 0, 1, 0, -1, 1)),
        ("rotated 270", CalibrationMatrix(0, 1, 0, -1, 0, 1)),
        ("x mirrored", CalibrationMatrix(-1, 0, 1, 0, 1, 0)),
        ("y mirrored", CalibrationMatrix(1, 0, 0, 0, -1, 1)),
        ("offset", CalibrationMatrix(1, 0, 0.04, 0, 1, -0.03)),
        ("scaled", CalibrationMatrix(1.12, 0, -0.06, 0, 0.9, 0.05)),
        ("slight shear", CalibrationMatrix(1.02, 0.03, -0.02, -0.02, 0.98, 0.01)),
    ]

    @Test("each matrix is recovered to 1e-3 from taps with ±2 units of jitter", arguments: 0..<cases.count)
    func recovers(_ index: Int) throws {
        let (name, matrix) = Self.cases[index]
        for places in [Array(Self.places[0..<5]), Self.places] {
            let evemu = CalibrationRecordings.evemu(matrix: matrix, targets: places, jitter: 2, seed: UInt64(index))
            let run = try Self.calibrate(evemu, targets: Self.targetList(places))
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let found = try #require(Self.printedMatrix(run.stdout), "\(name): \(run.stdout)")
            #expect(found.count == 6)
            for (value, want) in zip(found, matrix.values) {
                #expect(abs(value - want) < 1e-3, "\(name) with \(places.count) targets: \(found)")
            }
            // The test device has 16 units/mm: residuals are printed in mm, one line per point.
            #expect(run.stdout.split(separator: "\n").filter { $0.contains(" mm (") }.count == places.count)
        }
    }

    @Test("without --size the targets are in the device's own range")
    func deviceRangeTargets() throws {
        let matrix = CalibrationMatrix(0, -1, 1, 1, 0, 0)
        let places = Array(Self.places[0..<5])
        let evemu = CalibrationRecordings.evemu(matrix: matrix, targets: places, jitter: 0)
        let targets = places.map { "\($0.x * 4096),\($0.y * 4096)" }.joined(separator: " ")
        let run = try Self.calibrate(evemu, targets: targets, extra: ["--udev"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("LIBINPUT_CALIBRATION_MATRIX=\"0 -1 1 1 0 0\"\n"), "\(run.stdout)")
        #expect(
            run.stdout.contains(
                #"ATTRS{name}=="touchd test touchscreen", ENV{LIBINPUT_CALIBRATION_MATRIX}="0 -1 1 1 0 0""#))
    }

    @Test("a device without resolution gives residuals in device units, and says so")
    func noResolution() throws {
        var device = TestDevices.touchscreen
        device.absInfo[AbsCode.mtPositionX]?.resolution = 0
        device.absInfo[AbsCode.mtPositionY]?.resolution = 0
        let places = Array(Self.places[0..<5])
        let evemu = CalibrationRecordings.evemu(matrix: .identity, targets: places, device: device, jitter: 2)
        let run = try Self.calibrate(evemu, targets: Self.targetList(places))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("device units (") && run.stdout.contains("no axis resolution"), "\(run.stdout)")
    }

    @Test("bad input is a clear error with status 65 (or 64 for the command line)")
    func badInput() throws {
        let five = Array(Self.places[0..<5])
        let evemu = CalibrationRecordings.evemu(matrix: .identity, targets: five, jitter: 0)
        let fewer = try Self.calibrate(evemu, targets: Self.targetList(Array(five[0..<2])))
        #expect(fewer.status == 65)
        #expect(fewer.stderr.contains("at least 3 targets, not 2"), "\(fewer.stderr)")
        let line: [(x: Double, y: Double)] = [(0.1, 0.1), (0.3, 0.3), (0.5, 0.5), (0.7, 0.7), (0.9, 0.9)]
        let collinear = try Self.calibrate(
            CalibrationRecordings.evemu(matrix: .identity, targets: line, jitter: 0), targets: Self.targetList(line))
        #expect(collinear.status == 65)
        #expect(collinear.stderr.contains("the targets lie on one line"), "\(collinear.stderr)")
        let more = try Self.calibrate(evemu, targets: Self.targetList(Array(five[0..<4])))
        #expect(more.status == 65)
        #expect(more.stderr.contains("the recording has 5 taps for 4 targets"), "\(more.stderr)")
        let missing = try Self.calibrate(evemu, targets: Self.targetList(Self.places[0..<6].map { $0 }))
        #expect(missing.stderr.contains("the recording has 5 taps for 6 targets"), "\(missing.stderr)")
        // The fourth tap lands at the centre instead of its corner: no affine map explains it.
        var wrong = five
        wrong[3] = (0.5, 0.5)
        wrong[4] = (0.875, 0.875)
        let misTap = try Self.calibrate(
            CalibrationRecordings.evemu(matrix: .identity, targets: wrong, jitter: 0), targets: Self.targetList(five))
        #expect(misTap.status == 65)
        #expect(misTap.stderr.contains("probably a mis-tap"), "\(misTap.stderr)")
        let word = try Self.calibrate(evemu, targets: "1,2 3;4 5,6")
        #expect(word.status == 64)
        #expect(word.stderr.contains("--targets '3;4'"), "\(word.stderr)")
    }

    @Test("targets past Double's range (1e308) are refused with status 65, never a NaN matrix")
    func extremeTargets() throws {
        let three = Array(Self.places[0..<3])
        let evemu = CalibrationRecordings.evemu(matrix: .identity, targets: three, jitter: 0)
        let run = try Self.calibrate(evemu, targets: "1e308,0 0,1e308 1e308,1e308", extra: [])
        #expect(run.status == 65, "\(run.stdout)")
        #expect(!run.stdout.lowercased().contains("nan") && !run.stdout.lowercased().contains("inf"), "\(run.stdout)")
        #expect(run.stderr.contains("too large"), "\(run.stderr)")
    }

    @Test("targets past Int's range (1e19) with a display that size fit, and their lines print")
    func hugeTargets() throws {
        let three = Array(Self.places[0..<3])
        let evemu = CalibrationRecordings.evemu(matrix: .identity, targets: three, jitter: 0)
        let run = try Self.calibrate(evemu, targets: "1e19,1e19 7e19,1e19 1e19,7e19", extra: ["--size", "8e19x8e19"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("LIBINPUT_CALIBRATION_MATRIX=\"1 0 0 0 1 0\"\n"), "\(run.stdout)")
        #expect(run.stdout.split(separator: "\n").filter { $0.hasPrefix("point ") }.count == 3, "\(run.stdout)")
    }
}
