import Testing
import TouchJSON

@Suite("JSON parser and writer")
struct JSONTests {
    @Test("values keep the line they start on")
    func lines() throws {
        let value = try JSONParser.parse("{\n  \"size\": [1280, 800],\n  \"regions\": [\n    {\"id\": \"a\"}\n  ]\n}")
        #expect(value["size"]?.line == 2)
        guard case .array(let regions, _) = value["regions"] else {
            Issue.record("regions is not an array")
            return
        }
        #expect(regions.first?.line == 4)
        #expect(regions.first?["id"] == .string("a", line: 4))
    }

    @Test("scalars, escapes and numbers decode as RFC 8259 says")
    func scalars() throws {
        let value = try JSONParser.parse(#"[true, false, null, -0.5e2, "a\"b\\c\u00e9\ud83d\ude00"]"#)
        #expect(
            value
                == .array(
                    [
                        .bool(true, line: 1), .bool(false, line: 1), .null(line: 1), .number(-50, line: 1),
                        .string("a\"b\\cé😀", line: 1),
                    ], line: 1))
    }

    @Test(
        "syntax errors give line, column and what was expected",
        arguments: [
            ("{\"a\": 1,\n \"a\": 2}", 2, "duplicate key \"a\""),
            ("[1, 2", 1, "expected ',' or ']' in array"),
            ("{\"a\" 1}", 1, "expected ':' after key \"a\""),
            ("[01]", 1, "expected ',' or ']' in array"),
            ("\"abc", 1, "unterminated string"),
            ("[1] x", 1, "unexpected text after the JSON value"),
            ("\n\n  tru", 3, "unexpected text, expected 'true'"),
            (#""\uD96C\uABAC""#, 1, "invalid low surrogate in \\u escape"),
            (#""\uD96C""#, 1, "invalid \\u escape"),
        ] as [(String, Int, String)])
    func syntaxErrors(text: String, line: Int, message: String) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        #expect(error.line == line)
        #expect(error.message == message)
    }

    @Test("nesting is bounded")
    func depth() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    @Test("keyed arrays, nested objects and raw values are followed by commas")
    func nestedSeparators() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.beginArray("a")
        writer.element(Int64(1))
        writer.endArray()
        writer.key("b")
        writer.beginObject()
        writer.field("c", true)
        writer.endObject()
        writer.rawField("d", Array("[2]".utf8))
        writer.field("e", "x")
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":[1],"b":{"c":true},"d":[2],"e":"x"}"#)
        #expect(throws: Never.self) { try JSONParser.parse(writer.bytes) }
    }

    @Test("objects inside arrays are separated; top-level objects (NDJSON lines) are not")
    func topLevelAndArraySeparators() {
        var writer = JSONWriter()
        for line in 0..<2 {
            writer.beginObject()
            writer.beginArray("r")
            for index in 0..<2 {
                writer.beginObject()
                writer.field("i", Int64(line * 2 + index))
                writer.beginArray("e")
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
            writer.field("n", Int64(line))
            writer.endObject()
            writer.newline()
        }
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == "{\"r\":[{\"i\":0,\"e\":[]},{\"i\":1,\"e\":[]}],\"n\":0}\n"
                + "{\"r\":[{\"i\":2,\"e\":[]},{\"i\":3,\"e\":[]}],\"n\":1}\n")
    }

    @Test("a writer grows past its initial capacity, and a copy of it is independent")
    func growthAndCopies() {
        var writer = JSONWriter(capacity: 1)
        writer.beginObject()
        let long = String(repeating: "abcdefghij", count: 100)
        writer.field("text", long)
        var copy = writer
        writer.field("n", Int64(1))
        writer.endObject()
        copy.field("m", Int64(2))
        copy.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\"text\":\"\(long)\",\"n\":1}")
        #expect(String(decoding: copy.bytes, as: UTF8.self) == "{\"text\":\"\(long)\",\"m\":2}")
        #expect(writer.count == long.utf8.count + 17)  // {"text":"…","n":1}
    }

    @Test("the writer's output parses back to the same values; doubles are fixed-point and deterministic")
    func writerRoundTrip() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("name", "quote \" backslash \\ newline \n tab \t bell \u{7}")
        writer.field("count", Int64(-42))
        writer.field("x", 12.345)
        writer.field("y", 0.05)
        writer.field("z", -3.0)
        writer.field("ok", true)
        writer.beginArray("list")
        writer.element(Int64(1))
        writer.element("two")
        writer.endArray()
        writer.endObject()
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#""x":12.35,"y":0.05,"z":-3,"#))
        let value = try JSONParser.parse(writer.bytes)
        #expect(value["name"] == .string("quote \" backslash \\ newline \n tab \t bell \u{7}", line: 1))
        #expect(value["count"] == .number(-42, line: 1))
        #expect(value["list"] == .array([.number(1, line: 1), .string("two", line: 1)], line: 1))
    }
}

@Suite("JSON: compact re-encoding of parsed text")
struct CompactJSONTests {
    @Test("a pretty-printed document becomes one line that parses to the same value")
    func prettyToOneLine() throws {
        let pretty = """
            {
              "size": [1280, 800],
              "regions": [
                {"id": "a\\tb", "frame": [0.5, -2, 1e-7, 12345678901], "hidden": false, "note": null},
                {"id": "é\\u0001", "z": -0.0}
              ]
            }

            """
        let original = try JSONParser.parse(pretty)
        let compact = original.compactJSON
        #expect(!compact.contains(UInt8(ascii: "\n")))
        #expect(try JSONParser.parse(compact) == original)
        #expect(
            String(decoding: compact, as: UTF8.self)
                == #"{"size":[1280,800],"regions":[{"id":"a\tb","frame":[0.5,-2,1e-07,12345678901],"hidden":false,"note":null},{"id":"é\u0001","z":0}]}"#
        )
    }

    @Test("a leading UTF-8 byte order mark is skipped; one anywhere else is an error")
    func byteOrderMark() throws {
        #expect(
            try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
                == .object([("a", .number(1, line: 1))], line: 1))
        #expect(throws: JSONSyntaxError.self) {
            try JSONParser.parse(Array(#"{"a": "#.utf8) + [0xEF, 0xBB, 0xBF, 0x7D])
        }
    }

    @Test("a string's bytes must be UTF-8: a stray byte, a truncated sequence, an overlong form, a surrogate")
    func invalidUTF8() throws {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
            let text = Array("{\"a\": 1,\n \"b\": \"x".utf8) + bad + Array("y\"}".utf8)
            let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
            #expect(error.line == 2 && error.message == "a string that is not valid UTF-8", "\(bad)")
        }
        // Valid multi-byte text passes as written.
        #expect(try JSONParser.parse(Array("\"é😀\u{10FFFF}\"".utf8)) == .string("é😀\u{10FFFF}", line: 1))
    }

    @Test("the source text of a top-level key is kept exactly")
    func keptSource() throws {
        let line = Array(#"{"op":"ping", "id" : 9007199254740993 ,"x":{"id":2}}"#.utf8)
        let parsed = try JSONParser.parse(line, keepingSourceOf: "id")
        #expect(parsed.source.map { String(decoding: $0, as: UTF8.self) } == "9007199254740993")
        #expect(try JSONParser.parse(Array(#"{"x":{"id":2}}"#.utf8), keepingSourceOf: "id").source == nil)
    }
}

@Suite("JSON writer: extreme numbers (fuzzing regressions)")
struct ExtremeNumberTests {
    @Test("doubles beyond fixed point are written in exponent form and parse back")
    func huge() throws {
        var writer = JSONWriter()
        writer.beginArray()
        writer.element(7e103)
        writer.element(-1e300)
        writer.element(Double.infinity)
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[7e+103,-1e+300,null]")
        #expect(
            try JSONParser.parse(writer.bytes)
                == .array([.number(7e103, line: 1), .number(-1e300, line: 1), .null(line: 1)], line: 1))
    }

    @Test("an object of 80,000 keys parses in one pass, and a duplicate among them is still found")
    func manyKeys() throws {
        let keys = (0..<80_000).map { #""k\#($0)":0"# }
        let value = try JSONParser.parse(Array(("{" + keys.joined(separator: ",") + "}").utf8))
        guard case .object(let members, _) = value else { throw JSONTestFailure() }
        #expect(members.count == 80_000)
        let duplicate = "{" + keys.joined(separator: ",") + #","k40000":1}"#
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(duplicate.utf8)) }
    }
}

struct JSONTestFailure: Error {}
