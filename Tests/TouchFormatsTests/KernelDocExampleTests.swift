import Foundation
import Testing
import TouchCore
import TouchFormats
import TouchTestKit

/// The protocol examples of Documentation/input/multi-touch-protocol.rst, read from the verbatim copy in
/// ../shared/recordings: symbolic lines such as `ABS_MT_POSITION_X x[0]` become events, with the placeholders
/// x[i] = 1000 + 100·i and y[i] = 2000 + 100·i (x[0] after the move: 1050).
@Suite(
    "Kernel documentation examples",
    .enabled(if: SharedRecordings.available, Comment(rawValue: SharedRecordings.skipMessage)))
struct KernelDocExampleTests {
    static func section(_ title: String) throws -> [String] {
        let text = try String(contentsOfFile: SharedRecordings.path("kernel-doc-examples.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: title) else { return [] }
        let end =
            lines[(start + 1)...].firstIndex { $0.hasPrefix("Protocol Example") || $0.hasPrefix("=====") }
            ?? lines.count
        return lines[start..<end].filter { $0.hasPrefix("   ") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func events(_ lines: [String], moved: Bool = false) -> [InputEvent] {
        var events: [InputEvent] = []
        var time: Int64 = 0
        var movedOnce = false
        for line in lines {
            let parts = line.split(separator: " ")
            guard let (type, code) = EventNames.code(named: String(parts[0])) else { continue }
            var value: Int32 = 0
            if parts.count > 1 {
                let argument = String(parts[1])
                if let number = Int32(argument) {
                    value = number
                } else if argument.hasPrefix("x[") || argument.hasPrefix("y[") {
                    let index = Int32(argument.dropFirst(2).dropLast())!
                    value = (argument.hasPrefix("x") ? 1000 : 2000) + 100 * index
                    // The second "x[0]" in example B is the moved contact.
                    if argument == "x[0]" && movedOnce { value = 1050 }
                    if argument == "x[0]" { movedOnce = true }
                }
            }
            events.append(InputEvent(time: EventTime(microseconds: time), type: type, code: code, value: value))
            if type == EventType.syn && code == SynCode.report { time += 10_000 }
        }
        return events
    }

    @Test("protocol example B: two contacts down, contact 45 moves in x, then each lifts")
    func exampleB() throws {
        let lines = try Self.section("Protocol Example B")
        #expect(lines.count == 17)
        let decoded = decodeAll(Self.events(lines), device: TestDevices.touchscreen).outputs
        #expect(
            summarize(decoded) == [
                "down 1 s0 (1000,2000)", "down 2 s1 (1100,2100)", "frame",
                "move 1 s0 (1050,2000)", "frame",
                "up 1 s0 (1050,2000)", "frame",
                "up 2 s1 (1100,2100)", "frame",
            ])
    }

    @Test("protocol example A: two contacts, the first lifts, then the second")
    func exampleA() throws {
        let lines = try Self.section("Protocol Example A")
        let decoded = decodeAll(Self.events(lines), device: TestDevices.contactReporter).outputs
        #expect(
            summarize(decoded) == [
                "down 1 s0 (1000,2000)", "down 2 s1 (1100,2100)", "frame",
                "up 1 s0 (1000,2000)", "frame",
                "up 2 s1 (1100,2100)", "frame",
            ])
    }
}
