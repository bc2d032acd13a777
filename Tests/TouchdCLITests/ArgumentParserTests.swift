import Testing
import TouchPosix
import TouchdCLI

@Suite("Argument parser and logger")
struct ArgumentParserTests {
    let parser = ArgumentParser([
        .value("size", "WxH", help: "size"),
        .flag("quiet", short: "q", help: "quiet"),
        .value("output", short: "o", "FILE", help: "out"),
    ])

    @Test("values, inline values, short flags, positionals and --")
    func parses() throws {
        let parsed = try parser.parse(["a.evemu", "--size", "10x20", "-q", "--output=x.txt", "--", "--not-an-option"])
        #expect(parsed.positionals == ["a.evemu", "--not-an-option"])
        #expect(parsed["size"] == "10x20")
        #expect(parsed["output"] == "x.txt")
        #expect(parsed.has("quiet"))
    }

    @Test(
        "errors name the argument",
        arguments: [
            (["--bogus"], ArgumentError.unknownOption("--bogus")),
            (["--size"], .missingValue("size")),
            (["-x"], .unknownOption("-x")),
            (["--quiet=yes"], .unexpectedArgument("--quiet=yes")),
        ])
    func errors(arguments: [String], expected: ArgumentError) {
        #expect(throws: expected) { try parser.parse(arguments) }
    }

    @Test("typed values and choices reject what does not convert")
    func typedValues() throws {
        let parsed = try parser.parse(["--size", "big"])
        #expect(throws: ArgumentError.invalidValue(option: "size", value: "big", expected: "a number")) {
            _ = try parsed.value("size", expected: "a number") { Int($0) }
        }
        #expect(throws: ArgumentError.self) { _ = try parsed.choice("size", ["small"], default: "small") }
        #expect(try parsed.choice("missing", ["a"], default: "a") == "a")
    }

    final class Lines: LogHandler, @unchecked Sendable {
        var lines: [String] = []
        func write(_ line: String) { lines.append(line) }
    }

    @Test("journald style prefixes the syslog priority; the threshold filters")
    func logger() {
        let sink = Lines()
        let logger = Logger(threshold: .notice, style: .journald, handler: sink)
        logger.error("bad")
        logger.warning("careful")
        logger.info("chatter")
        #expect(sink.lines == ["<3>bad", "<4>careful"])
        let plain = Logger(threshold: .debug, style: .plain, handler: sink)
        plain.debug("x")
        #expect(sink.lines.last == "touchd: debug: x")
        #expect(LogLevel(name: "warning") == .warning && LogLevel(name: "loud") == nil)
    }
}
