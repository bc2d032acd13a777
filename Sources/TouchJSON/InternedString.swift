import Synchronization

/// A string named on every event and changed rarely (a region's id, a device's name), interned once, when the scene
/// or the device set changes, and then handed on as one pointer.
///
/// Copying one retains nothing: its entry is never freed. Equality and hashing are the entry's address (one entry a
/// string), and the entry keeps the string's JSON form, quoted and escaped, so a template line copies it like a
/// literal (`TemplateCursor.string(_:)`). Sendable because the entry is immutable and never freed: any thread may
/// read it. The table only grows: by the ids a scene, a client's `add-region` or a
/// device ever named, each held once however often it comes back.
public struct InternedString: Hashable, @unchecked Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    @usableFromInline let entry: UnsafePointer<Entry>

    @usableFromInline
    struct Entry {
        let string: String
        /// The string as a JSON value: between quotes, escaped as `JSONWriter` escapes it.
        @usableFromInline let json: UnsafeBufferPointer<UInt8>
        /// `json.count` rounded up to a multiple of 16: the bytes allocated from `json.baseAddress`, zeros past the
        /// JSON, so a template line may copy the JSON sixteen bytes at a time (`TemplateCursor.string(_:)`).
        @usableFromInline let paddedCount: Int
    }

    /// Every entry made so far, by its string's UTF-8 bytes: `String` keys compare by canonical equivalence, so an
    /// id written decomposed (NFD) would have been printed with the bytes of an earlier composed (NFC) one.
    private static let table = Mutex<[[UInt8]: Address]>([:])

    /// An entry's address, as the table keeps it (the table is shared between threads; entries are never written).
    private struct Address: @unchecked Sendable {
        let entry: UnsafePointer<Entry>
    }

    public init(_ string: String) {
        let key = Array(string.utf8)
        entry = Self.table.withLock { table in
            if let known = table[key] { return known.entry }
            let made = UnsafeMutablePointer<Entry>.allocate(capacity: 1)
            let json = Self.encode(string)
            made.initialize(to: Entry(string: string, json: json, paddedCount: Self.padded(json.count)))
            table[key] = Address(entry: made)
            return UnsafePointer(made)
        }
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The entry for `string` if one was made, without making one: whether a string has been interned.
    public static func existing(_ string: String) -> InternedString? {
        table.withLock { $0[Array(string.utf8)] }.map { InternedString(entry: $0.entry) }
    }

    private init(entry: UnsafePointer<Entry>) { self.entry = entry }

    public var string: String { entry.pointee.string }

    public var description: String { string }

    /// Bytes of the JSON value (quotes and escapes included).
    @inlinable public var jsonCount: Int { entry.pointee.json.count }

    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.entry == rhs.entry }

    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(UnsafeRawPointer(entry)) }

    private static func padded(_ count: Int) -> Int { (count + 15) & ~15 }

    /// The JSON form in memory of its own, `padded(count)` bytes long, zeros after the JSON.
    private static func encode(_ string: String) -> UnsafeBufferPointer<UInt8> {
        var writer = JSONWriter(capacity: string.utf8.count * 6 + 2)
        writer.element(string)
        return writer.withUnsafeBytes { raw in
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: padded(raw.count))
            copy.initialize(repeating: 0, count: padded(raw.count))
            if let source = raw.baseAddress {
                copy.update(from: source.assumingMemoryBound(to: UInt8.self), count: raw.count)
            }
            return UnsafeBufferPointer(start: copy, count: raw.count)
        }
    }
}
