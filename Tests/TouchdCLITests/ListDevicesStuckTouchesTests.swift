import Testing
import TouchDaemon

@testable import TouchdCLI

/// `touchd list-devices`' `stuck touches:` line: the rules in force for the device, where they come from, and the
/// running daemon's count.
@Suite("touchd list-devices: stuck touches")
struct ListDevicesStuckTouchesTests {
    @Test("the default: silent 5 s while other touches report, motionless off")
    func defaultLine() {
        #expect(
            ListDevicesCommand.stuckTouchesLine(Config.DeviceRule(), cancelled: nil)
                == "  stuck touches: silent 5 s while other touches report, motionless off (default)\n")
    }

    @Test("a rule's limits, and the count the running touchd reported for the device")
    func configuredWithCount() {
        var rule = Config.DeviceRule()
        rule.stuckSilentSeconds = 0
        rule.stuckMotionlessSeconds = 90.5
        #expect(
            ListDevicesCommand.stuckTouchesLine(rule, cancelled: 3)
                == "  stuck touches: silent off while other touches report, motionless 90.5 s (configuration);"
                + " 3 cancelled by the running touchd\n")
    }

    @Test("no daemon at the socket: no counts, and no error")
    func noDaemon() {
        #expect(ListDevicesCommand.stuckCancelsFromDaemon(socketPath: "/tmp/touchd-no-such-socket.sock").isEmpty)
    }
}
