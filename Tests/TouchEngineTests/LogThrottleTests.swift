import Testing

@testable import TouchEngine

@Suite("Log throttle")
struct LogThrottleTests {
    @Test("one line a second; the lines held back are counted in the next one")
    func throttle() {
        var throttle = LogThrottle(intervalMicroseconds: 1_000_000)
        #expect(throttle.admit(at: 0) == (true, 0))
        for t in stride(from: Int64(1000), to: 1_000_000, by: 100_000) { #expect(throttle.admit(at: t) == (false, 0)) }
        #expect(throttle.admit(at: 1_000_000) == (true, 10))
        #expect(throttle.admit(at: 1_500_000) == (false, 0))
        #expect(throttle.admit(at: 5_000_000) == (true, 1))
    }
}
