import CAllocCounter
import TouchPosix

/// Wall-clock and allocation measurements for the benchmarks.
enum Measure {
    /// CLOCK_MONOTONIC in nanoseconds (the vDSO makes this cheap, about 20 ns here).
    static func nanoseconds() -> Int64 { MonotonicClock.nowNanoseconds() }

    static func allocations() -> UInt64 { touchd_allocation_count() }

    /// The p-th percentile (0...100) of sorted values.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let position = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count - 1)).rounded())))
        return sorted[position]
    }

    static func format(_ value: Double, decimals: Int = 1) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// "12.3 M" style.
    static func millions(_ value: Double) -> String { format(value / 1_000_000, decimals: 2) + " M" }
}
