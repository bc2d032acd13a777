import Foundation
import Testing
import TouchTestKit

/// The man pages (docs/man) are written by hand next to the docs; these tests hold them to the programs: every option
/// a program's --help prints, read from the built program when the test runs, must be on its page, and every page
/// must render without a warning.
@Suite("Man pages", .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.touchd)))
struct ManPageTests {
    static let pages = DaemonProcess.root + "/docs/man/"
    static let touchdActions = DaemonProcess.touchdActions

    /// The options named in a help text: words that start with one or two dashes and a letter.
    static func options(in text: String) -> Set<String> {
        let separators = Set(" \n\t,;:[]()|='\"`")
        return Set(
            text.split(whereSeparator: { separators.contains($0) }).map(String.init).filter { word in
                let body = word.drop { $0 == "-" }
                let dashes = word.count - body.count
                return (dashes == 1 && body.count == 1 || dashes == 2 && body.count > 1)
                    && body.first?.isLetter == true && body.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            })
    }

    /// The text of a man page's source as a reader sees its words: roff's escaped dashes and font changes undone.
    static func readable(_ source: String) -> String {
        var text = source.replacingOccurrences(of: "\\-", with: "-")
        for font in ["\\fB", "\\fI", "\\fR", "\\fP"] { text = text.replacingOccurrences(of: font, with: " ") }
        return text
    }

    /// The options of `help` that `page` (man source) does not name.
    static func missing(help: String, page: String) -> [String] {
        options(in: help).subtracting(options(in: readable(page))).sorted()
    }

    static func help(_ program: String, _ arguments: [String]) throws -> String {
        let result = try DaemonProcess.run(program, arguments + ["--help"])
        #expect(result.status == 0, "\(program) \(arguments) --help: \(result.err)")
        return result.out
    }

    static func page(_ name: String) throws -> String {
        try String(contentsOfFile: pages + name, encoding: .utf8)
    }

    @Test("the check finds an option a page lacks, and reads roff's \\- and font escapes as the reader sees them")
    func checkerFindsWhatIsMissing() {
        let help = "  -c, --config FILE   configuration\n  --loop   start again\n  --log-level LEVEL  err or info"
        let page = ".TP\n.BR \\-c \", \" \\-\\-config\n.TP\n\\fB\\-\\-log\\-level\\fR\n.B \\-\\-looping\n"
        #expect(Self.missing(help: help, page: page) == ["--loop"])
        #expect(Self.options(in: "events-only, - reads stdin, '' for none, -V, --version") == ["-V", "--version"])
    }

    @Test("touchd(8) names every option of touchd --help and of each command's --help")
    func touchdPage() throws {
        let page = try Self.page("touchd.8")
        let top = try Self.help(DaemonProcess.touchd, [])
        #expect(Self.missing(help: top, page: page) == [], "touchd --help")
        // The commands are the lines of the top-level help's "commands:" block.
        let commands = top.split(separator: "\n").drop { !$0.hasPrefix("commands:") }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count >= 5)
        for command in commands {
            #expect(page.contains(".B \(command.replacingOccurrences(of: "-", with: "\\-"))"), "\(command) in touchd.8")
            let help = try Self.help(DaemonProcess.touchd, [command])
            #expect(Self.missing(help: help, page: page) == [], "touchd \(command) --help")
        }
    }

    @Test("touchctl(1) and touchd-actions(1) name every option of their --help")
    func clientPages() throws {
        #expect(Self.missing(help: try Self.help(DaemonProcess.touchctl, []), page: try Self.page("touchctl.1")) == [])
        #expect(
            Self.missing(help: try Self.help(Self.touchdActions, []), page: try Self.page("touchd-actions.1")) == [])
    }

    @Test(
        "every page renders with man --warnings (groff -ww) and says nothing on stderr",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man")))
    func pagesRender() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.pages).filter { $0.last?.isNumber == true }
        #expect(
            Set(names) == [
                "touchd.8", "touchctl.1", "touchd-actions.1", "touchd.json.5", "touchd-scene.5",
                "touchd-actions.json.5", "touchd-protocol.7",
            ])
        for name in names {
            let rendered = try DaemonProcess.run(
                "/usr/bin/man", ["--warnings", "-l", "-E", "UTF-8", Self.pages + name])
            #expect(rendered.status == 0 && rendered.err.isEmpty, "\(name): \(rendered.err)")
            #expect(rendered.out.contains("NAME"), "\(name) rendered")
        }
    }
}
