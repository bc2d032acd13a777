import Testing

@testable import TouchEngine

@Suite("Device indices")
struct DeviceIndicesTests {
    @Test("70,000 hotplugs of one device: indices wrap past 65,535 instead of trapping, and skip those in use")
    func wrapsAndSkips() {
        var indices = DeviceIndices()
        var open: Set<UInt16> = [0, 2]  // two devices that stay plugged in all along
        var seen: [UInt16] = []
        _ = indices.allocate { open.contains($0) }  // 1: the flaky device's first plug
        for _ in 0..<70_000 {
            let index = indices.allocate { open.contains($0) }!
            #expect(!open.contains(index))
            seen.append(index)
        }
        #expect(seen.prefix(3) == [3, 4, 5])
        // After 65,535 comes 0 (in use), 1 (free again), 2 (in use), 3.
        let wrap = seen.firstIndex(of: 65_535)!
        #expect(Array(seen[(wrap + 1)...].prefix(2)) == [1, 3])
        open = Set(0...UInt16.max)
        #expect(indices.allocate { open.contains($0) } == nil)
    }
}
