import Foundation
import Testing
import TouchTestKit

/// `touchd replay --map-to`: the demo panel's first touch lands at (200, 125) of 1280x800 (ReplayTests); mapped
/// onto a rectangle it moves there, scaled by the rectangle's size over the output's.
@Suite("touchd replay --map-to")
struct MapToReplayTests {
    static let demo = SharedRecordings.repositoryRoot + "/config/demo/panel.evemu"

    static func firstDown(_ stdout: String) -> String? {
        stdout.split(separator: "\n").first { $0.contains(#""type":"down""#) }.map(String.init)
    }

    @Test(
        "the same recording on the right half of a 2560x800 scene, and on a smaller rectangle",
        .enabled(if: FileManager.default.isExecutableFile(atPath: touchdBinary)))
    func mapped() throws {
        let right = try runTouchd(["replay", Self.demo, "--size", "2560x800", "--map-to", "1280,0,1280,800", "-q"])
        #expect(right.status == 0)
        #expect(Self.firstDown(right.stdout)?.contains(#""x":1480,"y":125"#) == true)
        // 100 + 200 * 640/1280, 50 + 125 * 400/800.
        let small = try runTouchd(["replay", Self.demo, "--map-to", "100,50,640,400", "-q"])
        #expect(Self.firstDown(small.stdout)?.contains(#""x":200,"y":112.5"#) == true)
    }

    @Test(
        "a rectangle that is not four numbers with a positive size is a usage error",
        .enabled(if: FileManager.default.isExecutableFile(atPath: touchdBinary)),
        arguments: ["1,2,3", "0,0,0,10", "a,b,c,d", "0,0,10,10,"])
    func refused(value: String) throws {
        let result = try runTouchd(["replay", Self.demo, "--map-to", value])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--map-to"))
    }
}
