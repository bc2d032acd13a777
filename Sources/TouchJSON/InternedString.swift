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
            made.initialize(to: Entry(string: string, json: Self.encode(string)))
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

    private static func encode(_ string: String) -> UnsafeBufferPointer<UInt8> {
        var writer = JSONWriter(capacity: string.utf8.count * 6 + 2)
        writer.element(string)
        return writer.withUnsafeBytes { raw in
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: raw.count)
            _ = copy.initialize(from: raw)
            return UnsafeBufferPointer(copy)
        }
    }
}
