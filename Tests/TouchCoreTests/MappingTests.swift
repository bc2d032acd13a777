import Testing
import TouchCore

@Suite("Coordinate mapping")
struct MappingTests {
    // A device of 0...999 x 0...499: normalized x = v / 1000, y = v / 500.
    let x = AbsInfo(minimum: 0, maximum: 999)
    let y = AbsInfo(minimum: 0, maximum: 499)

    @Test("no settings: output units are device units from the minimum")
    func identity() throws {
        let mapping = try CoordinateMapping(xAxis: AbsInfo(minimum: 100, maximum: 1099), yAxis: y)
        #expect(mapping.map(x: 350, y: 125) == Point(x: 250, y: 125))
    }

    @Test("scaling to 1920x1080: (250, 125) of 1000x500 is (480, 270)")
    func scaling() throws {
        let mapping = try CoordinateMapping(xAxis: x, yAxis: y, settings: .init(outputSize: (1920, 1080)))
        #expect(mapping.map(x: 250, y: 125) == Point(x: 480, y: 270))
    }

    /// 90° clockwise is libinput's `0 -1 1 1 0 0`: (nx, ny) → (1 - ny, nx). The device's top-left corner lands
    /// top-right; (0.25, 0.25) → (0.75, 0.25), scaled to 800x600: (600, 150).
    @Test("rotation by 90, 180, 270 against hand-computed points")
    func rotations() throws {
        let at90 = try CoordinateMapping(xAxis: x, yAxis: y, settings: .init(outputSize: (800, 600), rotation: 90))
        #expect(at90.map(x: 250, y: 125) == Point(x: 600, y: 150))
        #expect(at90.map(x: 0, y: 0) == Point(x: 800, y: 0))
        let at180 = try CoordinateMapping(xAxis: x, yAxis: y, settings: .init(outputSize: (800, 600), rotation: 180))
        #expect(at180.map(x: 250, y: 125) == Point(x: 600, y: 450))  // (0.75, 0.75)
        let at270 = try CoordinateMapping(xAxis: x, yAxis: y, settings: .init(outputSize: (800, 600), rotation: 270))
        #expect(at270.map(x: 250, y: 125) == Point(x: 200, y: 450))  // (ny, 1 - nx) = (0.25, 0.75)
        let unsized = try CoordinateMapping(xAxis: x, yAxis: y, settings: .init(rotation: 90))
        #expect(unsized.outputWidth == 500 && unsized.outputHeight == 1000)  // sides swap
    }

    @Test("rotation 90 equals the LIBINPUT_CALIBRATION_MATRIX preset for 90°")
    func rotationMatchesPreset() throws {
        let preset = try #require(CalibrationMatrix(udevProperty: "0 -1 1 1 0 0"))
        let byMatrix = try CoordinateMapping(
            xAxis: x, yAxis: y, settings: .init(outputSize: (800, 600), calibration: preset))
        let byRotation = try CoordinateMapping(
            xAxis: x, yAxis: y, settings: .init(outputSize: (800, 600), rotation: 90))
        for (px, py) in [(0, 0), (999, 0), (123, 456), (500, 250)] as [(Int32, Int32)] {
            #expect(byMatrix.map(x: px, y: py) == byRotation.map(x: px, y: py))
        }
    }

    /// A panel whose touch area covers only the middle of the screen: x' = 0.5·x + 0.25, y' = 0.5·y + 0.25.
    /// The device centre (0.5, 0.5) stays at the centre; the device corner (0, 0) lands at (0.25, 0.25).
    @Test("calibration matrix in normalized space")
    func calibration() throws {
        let matrix = CalibrationMatrix(0.5, 0, 0.25, 0, 0.5, 0.25)
        let mapping = try CoordinateMapping(
            xAxis: x, yAxis: y, settings: .init(outputSize: (1000, 500), calibration: matrix))
        #expect(mapping.map(x: 500, y: 250) == Point(x: 500, y: 250))
        #expect(mapping.map(x: 0, y: 0) == Point(x: 250, y: 125))
    }

    @Test("inversion mirrors inside the output")
    func inversion() throws {
        let mapping = try CoordinateMapping(xAxis: x, yAxis: y, settings: .init(outputSize: (1000, 500), invertX: true))
        #expect(mapping.map(x: 250, y: 100) == Point(x: 750, y: 100))
    }

    @Test("the udev property parser takes exactly six numbers")
    func udevParsing() {
        #expect(CalibrationMatrix(udevProperty: "1 0 0 0 1 0") == .identity)
        #expect(CalibrationMatrix(udevProperty: "1 0 0 0 1") == nil)
        #expect(CalibrationMatrix(udevProperty: "1 0 0 0 1 x") == nil)
    }

    @Test("unsupported rotation is a typed error")
    func badRotation() {
        #expect(throws: CoordinateMapping.Error.unsupportedRotation(45)) {
            try CoordinateMapping(xAxis: x, yAxis: y, settings: .init(rotation: 45))
        }
    }
}
