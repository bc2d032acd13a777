import Testing
import TouchCore

@Suite("Mapping onto a region of the scene (mapTo)")
struct MappingRegionTests {
    // A device of 0...999 x 0...499: normalized x = v / 1000, y = v / 500.
    let x = AbsInfo(minimum: 0, maximum: 999)
    let y = AbsInfo(minimum: 0, maximum: 499)
    let scene = (width: 3840.0, height: 1080.0)
    let left = MappingRegion(x: 0, y: 0, width: 1920, height: 1080)
    let right = MappingRegion(x: 1920, y: 0, width: 1920, height: 1080)

    /// Two panels under one 3840x1080 scene: the middle of each, (0.5, 0.5), is the middle of its half.
    @Test("two panels side by side each get their half of a 3840x1080 scene")
    func sideBySide() throws {
        let onLeft = try CoordinateMapping(
            xAxis: x, yAxis: y, settings: .init(outputSize: scene, region: left))
        let onRight = try CoordinateMapping(
            xAxis: x, yAxis: y, settings: .init(outputSize: scene, region: right))
        #expect(onLeft.map(x: 500, y: 250) == Point(x: 960, y: 540))
        #expect(onRight.map(x: 500, y: 250) == Point(x: 2880, y: 540))
        // The device's corners are the half's corners (0 in, 1 out, as for the whole output).
        #expect(onRight.map(x: 0, y: 0) == Point(x: 1920, y: 0))
        #expect(onRight.map(deviceX: 1000, deviceY: 500) == Point(x: 3840, y: 1080))
    }

    /// Rotation comes first: 90° takes (0.25, 0.25) to (0.75, 0.25) (libinput's `0 -1 1 1 0 0`), and that lands
    /// in the region at (100 + 0.75 * 800, 50 + 0.25 * 600) = (700, 200).
    @Test("the region is applied after rotation")
    func afterRotation() throws {
        let region = MappingRegion(x: 100, y: 50, width: 800, height: 600)
        let mapping = try CoordinateMapping(xAxis: x, yAxis: y, settings: .init(rotation: 90, region: region))
        #expect(mapping.map(x: 250, y: 125) == Point(x: 700, y: 200))
    }

    /// Calibration `0.5 0 0.25 0 0.5 0.25` shrinks to the middle: (0.5, 0.5) stays (0.5, 0.5); (0, 0) becomes
    /// (0.25, 0.25), which in the right half is (1920 + 480, 270).
    @Test("the region is applied after calibration")
    func afterCalibration() throws {
        let calibration = try #require(CalibrationMatrix(udevProperty: "0.5 0 0.25 0 0.5 0.25"))
        let mapping = try CoordinateMapping(
            xAxis: x, yAxis: y, settings: .init(outputSize: scene, calibration: calibration, region: right))
        #expect(mapping.map(x: 0, y: 0) == Point(x: 2400, y: 270))
        #expect(mapping.map(x: 500, y: 250) == Point(x: 2880, y: 540))
    }

    @Test("a region needs four finite numbers and a positive size")
    func regionValues() {
        #expect(MappingRegion([1920, 0, 1920, 1080]) == right)
        #expect(MappingRegion([0, 0, 0, 1080]) == nil)
        #expect(MappingRegion([0, 0, 100]) == nil)
        #expect(MappingRegion([0, 0, .infinity, 10]) == nil)
        #expect(right.commaSeparated == "1920,0,1920,1080")
        #expect(MappingRegion(x: 0.5, y: 0, width: 10, height: 10).commaSeparated == "0.5,0,10,10")
    }
}
