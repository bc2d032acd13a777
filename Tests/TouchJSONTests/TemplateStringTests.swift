import Testing

@testable import TouchJSON

/// Region ids, device and gesture names go into event lines through `TemplateCursor.string`, which copies a clean
/// string byte by byte and starts over on the escaping path at the first byte that needs it; either way the line
/// must hold exactly what the writer's general path writes.
@Suite("Strings through a template cursor")
struct TemplateStringTests {
    func templated(_ value: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.writeTemplate(maximum: value.utf8.count * 6 + 2) { $0.string(value) }
        return writer.bytes
    }

    func general(_ value: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.element(value)
        return writer.bytes
    }

    @Test("clean and escaped strings, small and heap, print what JSONWriter prints")
    func matchesWriter() {
        let long = String(repeating: "region-", count: 12)
        let cases = [
            "", "a", "r12", "background", long, "\(long)\"", "\"\(long)", "tab\there", "back\\slash", "nul\u{0}",
            "\u{1F}", "quote\"d", "grüße", "指", "\u{7F}", "emoji 👍", "r\(12)" + "-built", String(long.dropFirst(3)),
        ]
        for value in cases {
            #expect(templated(value) == general(value), "\(value.debugDescription)")
        }
    }

    @Test("after an escaped string the cursor goes on where the escaped text ends")
    func continuesAfterEscape() {
        var writer = JSONWriter()
        writer.writeTemplate(maximum: 64) { line in
            line.string("a\"b")
            line.literal(",")
            line.string("ok")
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""a\"b","ok""#)
    }
}
