import Testing

@testable import TouchJSON

/// The buffer behind the writer and each client's queue: appends, dropping a front part, copies that stay apart.
@Suite("Byte buffer")
struct ByteBufferTests {
    func bytes(_ buffer: ByteBuffer) -> [UInt8] { buffer.withUnsafeBytes { Array($0) } }

    @Test("removeFirst keeps the rest in order, for every length dropped, and leaves a copy as it was")
    func removeFirst() {
        let content = (0..<100).map { UInt8($0) }
        for dropped in 0...content.count {
            var buffer = ByteBuffer(capacity: 0)
            content.withUnsafeBytes { buffer.append(contentsOf: $0) }
            let copy = buffer
            buffer.removeFirst(dropped)
            #expect(bytes(buffer) == Array(content[dropped...]))
            #expect(bytes(copy) == content)
            // Room past the new end is written again from there.
            [UInt8]([255]).withUnsafeBytes { buffer.append(contentsOf: $0) }
            #expect(bytes(buffer) == Array(content[dropped...]) + [255])
        }
    }

    @Test("appends grow the room past any capacity asked for; removeAll keeps nothing")
    func appends() {
        var buffer = ByteBuffer(capacity: 0)
        var expected: [UInt8] = []
        for length in 0..<200 {
            let piece = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) }
            piece.withUnsafeBytes { buffer.append(contentsOf: $0) }
            expected += piece
        }
        #expect(bytes(buffer) == expected && buffer.count == expected.count)
        buffer.removeAll()
        #expect(buffer.count == 0 && bytes(buffer).isEmpty)
    }
}
