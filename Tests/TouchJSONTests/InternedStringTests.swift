import Testing

@testable import TouchJSON

/// Region ids, device and gesture names are interned once and compared, hashed and written by their entry: equal
/// strings must share one entry, and the JSON made when interning must be what the writer writes for the string.
@Suite("Interned strings")
struct InternedStringTests {
    @Test("equal strings share one entry, different strings do not, however they were made")
    func oneEntryAString() {
        let built = String(repeating: "region-", count: 3) + "\(12)"
        #expect(InternedString(built) == InternedString("region-region-region-12"))
        #expect(InternedString(built).entry == InternedString("region-region-region-12").entry)
        #expect(InternedString("a") != InternedString("b"))
        #expect(Set([InternedString("x"), "x", InternedString(String("x"))]).count == 1)
        #expect(InternedString("grüße").string == "grüße")
        #expect(InternedString("r1").description == "r1")
    }

    @Test("the JSON form is what JSONWriter writes, and a template line copies it as it is")
    func jsonForm() {
        for value in ["", "r12", "quote\"d", "back\\slash", "tab\there", "nul\u{0}", "指", "emoji 👍"] {
            var general = JSONWriter()
            general.element(value)
            let interned = InternedString(value)
            var templated = JSONWriter()
            templated.writeTemplate(maximum: interned.jsonCount) { $0.string(interned) }
            #expect(templated.bytes == general.bytes, "\(value.debugDescription)")
            #expect(interned.jsonCount == general.count)
        }
    }

    /// A template line copies an interned JSON sixteen bytes at a time, padding included, when its room allows,
    /// and exactly otherwise: the bytes after each copy must be the next field's, never the padding.
    @Test("ids of every length up to 40, clean and escaped, one after another in a line, print as the writer's")
    func everyLengthInALine() {
        for length in 0...40 {
            let clean = String(repeating: "r", count: length)
            let escaped = String(repeating: "\"", count: length / 2) + String(repeating: "x", count: length % 7)
            for value in [clean, escaped] {
                let interned = InternedString(value)
                var general = JSONWriter()
                general.beginArray()
                general.element(value)
                general.element(value)
                general.endArray()
                for room in [1536 + 6 * interned.jsonCount, 2 * interned.jsonCount + 3] {
                    var templated = JSONWriter()
                    templated.writeTemplate(maximum: room) { line in
                        line.literal("[")
                        line.string(interned)
                        line.literal(",")
                        line.string(interned)
                        line.literal("]")
                    }
                    #expect(templated.bytes == general.bytes, "\(value.debugDescription) in \(room) bytes")
                }
            }
        }
    }

    @Test("interned from many threads at once, each string still has one entry")
    func concurrentInterning() async {
        let names = (0..<64).map { "concurrent-\($0)" }
        let entries = await withTaskGroup(of: [InternedString].self) { group in
            for _ in 0..<8 { group.addTask { () -> [InternedString] in names.map { InternedString($0) } } }
            var all: [[InternedString]] = []
            for await made in group { all.append(made) }
            return all
        }
        for made in entries { #expect(made == entries[0]) }
        #expect(Set(entries[0]).count == names.count)
    }

    /// Swift's `String ==` is canonical equivalence; the table must not be, or an id written decomposed would print
    /// with the bytes of an earlier composed one.
    @Test("a composed and a decomposed spelling are two entries, each printing its own bytes")
    func canonicalEquivalents() {
        let composed = InternedString("caf\u{E9}")
        let decomposed = InternedString("cafe\u{301}")
        #expect(composed != decomposed)
        #expect(Array(decomposed.string.utf8) == [0x63, 0x61, 0x66, 0x65, 0xCC, 0x81])
        #expect(decomposed.jsonCount == 8)  // the quotes and six bytes
        #expect(InternedString("cafe\u{301}") == decomposed)
    }
}
